// Dragging cards with pointer events (mouse, touch and pen alike). A press that moves
// less than a few pixels stays a click. Drop targets carry data-drop="...".

const THRESHOLD = 7;

/**
 * Where the pointer is, and the drop target under it (null: none).
 * @typedef {{ x: number, y: number, target: HTMLElement | null }} DropPoint
 */
/**
 * @typedef {object} PressOptions
 * @property {() => Element[]} cards the elements to show under the pointer while dragging
 * @property {(point: DropPoint) => void} [onMove]
 * @property {(point: DropPoint) => void} [onDrop]
 * @property {() => void} [onCancel]
 */

/**
 * Start watching a press on `element`. `options`:
 *   cards(): the elements to show under the pointer while dragging
 *   onMove({x, y, target}), onDrop({x, y, target}), onCancel()
 * Returns nothing; the element gets data-dragged="1" after a drag so its click is ignored.
 * @param {PointerEvent} event
 * @param {HTMLElement} element
 * @param {PressOptions} options
 */
export function beginPress(event, element, options) {
  if (event.button !== undefined && event.button !== 0) return;
  const startX = event.clientX;
  const startY = event.clientY;
  const pointerId = event.pointerId;
  /** @type {HTMLDivElement | null} */
  let ghost = null;
  /** @type {HTMLElement | null} */
  let lastTarget = null;

  /** @type {(x: number, y: number) => HTMLElement | null} */
  const targetAt = (x, y) => {
    const hit = document.elementFromPoint(x, y);
    return hit ? hit.closest("[data-drop]") : null;
  };
  /** @param {HTMLElement | null} target */
  const mark = (target) => {
    if (target === lastTarget) return;
    lastTarget?.classList.remove("drop-over");
    target?.classList.add("drop-over");
    lastTarget = target;
  };
  /** @param {PointerEvent} e */
  const move = (e) => {
    if (e.pointerId !== pointerId) return;
    const dx = e.clientX - startX;
    const dy = e.clientY - startY;
    if (!ghost) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      ghost = document.createElement("div");
      ghost.className = "drag-ghost";
      for (const card of options.cards()) {
        const copy = /** @type {HTMLElement} */ (card.cloneNode(true));
        copy.classList.remove("selected", "dragging");
        copy.style.setProperty("--w", getComputedStyle(card).width);
        ghost.append(copy);
        card.classList.add("dragging");
      }
      document.body.append(ghost);
      document.body.classList.add("is-dragging");
      element.dataset.dragged = "1";
    }
    const rect = ghost.getBoundingClientRect();
    ghost.style.left = `${e.clientX - rect.width / 2}px`;
    ghost.style.top = `${e.clientY - rect.height * 0.7}px`;
    const target = targetAt(e.clientX, e.clientY);
    mark(target);
    options.onMove?.({ x: e.clientX, y: e.clientY, target });
    e.preventDefault();
  };
  /**
   * @param {PointerEvent} e
   * @param {boolean} dropped
   */
  const finish = (e, dropped) => {
    if (e.pointerId !== pointerId) return;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    if (!ghost) return;
    mark(null);
    ghost.remove();
    document.body.classList.remove("is-dragging");
    for (const card of document.querySelectorAll(".card.dragging")) card.classList.remove("dragging");
    if (dropped) options.onDrop?.({ x: e.clientX, y: e.clientY, target: targetAt(e.clientX, e.clientY) });
    else options.onCancel?.();
    setTimeout(() => delete element.dataset.dragged, 0);
  };
  const up = (/** @type {PointerEvent} */ e) => finish(e, true);
  const cancel = (/** @type {PointerEvent} */ e) => finish(e, false);
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
}
