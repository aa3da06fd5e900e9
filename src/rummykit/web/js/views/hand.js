// The player's hand: cards fanned to fit the width (two rows when many), tap to select,
// drag to reorder or onto a meld or the discard pile, arrow keys to move and pick.

import { html, useEffect, useLayoutEffect, useRef, useState } from "../html.js";
import { CardSvg } from "../card-svg.js";
import { beginPress } from "../drag.js";
import { useFit } from "./fit.js";
import { t } from "../i18n.js";

/**
 * @import { Card } from "../protocol-types"
 * @import { HandEntry } from "../hand-order.js"
 * @import { MutableRef } from "../../vendor/preact-hooks.module.js"
 */
/**
 * @typedef {object} HandProps
 * @property {HandEntry[]} order
 * @property {Set<string>} selected
 * @property {Set<string>} [fresh]
 * @property {Set<string>} [hinted]
 * @property {(name: Card) => boolean} [isWild]
 * @property {Card | null} [forbidden]
 * @property {string} [label]
 * @property {boolean} [disabled]
 * @property {(key: string) => void} onToggle
 * @property {(keys: string[], index: number) => void} onReorder
 * @property {(target: string, keys: string[]) => void} onDrop where the cards were dropped (a data-drop value)
 * @property {(key: string) => void} [onActivate]
 */

/**
 * The hand's width, and the width of one of its cards as the page's style sets it (its
 * `--card-w`, which may be a clamp() expression), read from a hidden card (`probe`):
 * measured again whenever either is resized.
 * @param {MutableRef<HTMLElement | null>} ref the hand
 * @param {MutableRef<HTMLElement | null>} probe a card of the hand's style, out of the layout
 */
function useRoom(ref, probe) {
  const [room, setRoom] = useState({ width: 0, card: 0 });
  useLayoutEffect(() => {
    const hand = ref.current;
    const card = probe.current;
    if (!hand || !card) return undefined;
    const measure = () => {
      const width = hand.getBoundingClientRect().width;
      const styled = card.getBoundingClientRect().width;
      setRoom((old) => (old.width === width && old.card === styled ? old : { width, card: styled }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(hand);
    observer.observe(card);
    return () => observer.disconnect();
  }, []);
  return room;
}

/** The narrowest a card of the hand becomes (CSS pixels): its corner stays legible.  A
 * lower row of such cards leaves some 38 px of the row above, under TAP: the price of
 * keeping the buttons on the screen. */
const SMALLEST_CARD = 40;
/** Pixels of card width the hand gives up at a time while the board overflows. */
const CARD_STEP = 4;

/** The smallest tap target a finger hits reliably (CSS pixels): each card's uncovered
 * strip is at least this wide, and a lower row leaves at least this much of the row above. */
export const TAP = 44;

/**
 * Split `count` cards into rows so that each card shows at least its corner and leaves a
 * strip of TAP pixels to tap (up to five rows; a hand too big even for that is squeezed).
 * @param {number} count
 * @param {number} width the hand's width
 * @param {number} w a card's width
 */
function layout(count, width, w) {
  const minStep = Math.max(w * 0.42, Math.min(TAP, w));
  const maxStep = w * 1.06;
  for (let rows = 1; rows <= 5; rows += 1) {
    const perRow = Math.ceil(count / rows);
    const step = perRow > 1 ? Math.min(maxStep, (width - w) / (perRow - 1)) : maxStep;
    if (step >= minStep || rows === 5) return { perRow, step: Math.max(step, w * 0.3) };
  }
  return { perRow: count, step: minStep };
}

/**
 * The widths a card of the hand may take, the style's first, then CARD_STEP pixels less
 * at a time down to SMALLEST_CARD: the board gives the hand's cards less width while it
 * overflows (a phone in a long language, with a long prompt, cards seen taken or a hand
 * swollen by a large discard pile), so that the buttons under the hand stay on the screen.
 * @param {number} styled the card width the style sets
 * @returns {number[]}
 */
function cardWidths(styled) {
  const widths = [styled];
  for (let w = styled - CARD_STEP; w >= SMALLEST_CARD; w -= CARD_STEP) widths.push(w);
  return widths;
}

/**
 * props: order [{key, name}], selected Set, fresh Set, hinted Set, isWild(name),
 * forbidden (card name), onToggle(key), onReorder(keys, index), onDrop(target, keys),
 * onActivate(key) (double click / Enter with nothing else to do)
 * @param {HandProps} props
 */
export function Hand(props) {
  const { order, selected, fresh, hinted, isWild, forbidden, label } = props;
  const box = useRef(/** @type {HTMLElement | null} */ (null));
  const probe = useRef(/** @type {HTMLElement | null} */ (null));
  const room = useRoom(box, probe);
  const [focusKey, setFocusKey] = useState(/** @type {string | null} */ (null));
  const styled = room.card || 64;
  const w = useFit(box, cardWidths(styled), {
    key: `${order.length}:${Math.round(room.width)}:${styled}`,
    box: (hand) => /** @type {HTMLElement | null} */ (hand.closest(".board")),
  });
  const { perRow, step } = layout(order.length, Math.max(room.width, styled), w);
  const rows = [];
  for (let i = 0; i < order.length; i += perRow) rows.push(order.slice(i, i + perRow));

  // The focus stays in the hand: a move takes away the button or card that had it (the
  // page would get it, and the next Tab would start over at the top of the page), so a
  // focus lost from the board comes back to the hand's card that had it last, or its first.
  const focusInBoard = useRef(false);
  const lastFocused = useRef(focusKey);
  lastFocused.current = focusKey;
  const restoreFocus = useRef(() => {
    const active = document.activeElement;
    if (!focusInBoard.current || !box.current || (active && active !== document.body)) return;
    if (document.querySelector(".dialog-backdrop")) return;
    const key = lastFocused.current;
    const kept = key ? box.current.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
    const card = /** @type {HTMLElement | null} */ (kept || box.current.querySelector(".hand-card"));
    card?.focus({ preventScroll: true });
  });
  useEffect(() => {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const onFocusIn = (/** @type {FocusEvent} */ event) => {
      const board = box.current?.closest(".board");
      focusInBoard.current = Boolean(board && board.contains(/** @type {Node} */ (event.target)));
    };
    // a focused button turned off (disabled while the move is sent) lets the focus go
    const onFocusOut = (/** @type {FocusEvent} */ event) => {
      if (event.relatedTarget) return;
      clearTimeout(timer);
      timer = setTimeout(() => restoreFocus.current(), 30);
    };
    document.addEventListener("focusin", onFocusIn);
    document.addEventListener("focusout", onFocusOut);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("focusin", onFocusIn);
      document.removeEventListener("focusout", onFocusOut);
    };
  }, []);
  useEffect(() => restoreFocus.current());
  useEffect(() => {
    if (!focusKey || !box.current) return;
    const active = document.activeElement;
    // A card focused since this render was made (by Tab, a click, a keyboard's arrows)
    // keeps the focus: its own focus event names it next. Taking the focus back to the
    // card of this render would have the player's next key act on a card they left.
    if (!active || !box.current.contains(active) || active.closest(".hand-card")) return;
    /** @type {HTMLElement | null} */ (box.current.querySelector(`[data-key="${CSS.escape(focusKey)}"]`))?.focus();
  }, [focusKey, order]);

  /**
   * Where cards dropped at (x, y) go in the order without the `moving` ones.
   * @param {number} x
   * @param {number} y
   * @param {string[]} moving
   */
  const insertionIndex = (x, y, moving) => {
    const cards = /** @type {HTMLElement[]} */ ([.../** @type {HTMLElement} */ (box.current).querySelectorAll(".hand-card")]).filter((el) => !moving.includes(/** @type {string} */ (el.dataset.key)));
    let index = 0;
    for (const el of cards) {
      const r = el.getBoundingClientRect();
      const sameRow = y >= r.top - 10 && y <= r.bottom + 10;
      if (r.bottom + 10 < y || (sameRow && x > r.left + Math.min(r.width, step) / 2)) index += 1;
    }
    return index;
  };

  /**
   * @param {PointerEvent} event
   * @param {HandEntry} entry
   */
  const onPointerDown = (event, entry) => {
    if (props.disabled) return;
    const keys = selected.has(entry.key) ? order.filter((e) => selected.has(e.key)).map((e) => e.key) : [entry.key];
    beginPress(event, /** @type {HTMLElement} */ (event.currentTarget), {
      cards: () => /** @type {Element[]} */ (keys.map((k) => /** @type {HTMLElement} */ (box.current).querySelector(`[data-key="${CSS.escape(k)}"]`)).filter(Boolean)),
      onDrop: ({ x, y, target }) => {
        const kind = target?.dataset.drop;
        if (!kind || kind === "hand") {
          if (kind === "hand") props.onReorder(keys, insertionIndex(x, y, keys));
          return;
        }
        props.onDrop(kind, keys);
      },
    });
  };

  /**
   * @param {KeyboardEvent} event
   * @param {HandEntry} entry
   * @param {number} index the entry's place in the order
   */
  const onKeyDown = (event, entry, index) => {
    const move = /** @type {Record<string, number>} */ ({ ArrowLeft: -1, ArrowRight: 1 })[event.key];
    if (move) {
      event.preventDefault();
      const next = Math.max(0, Math.min(order.length - 1, index + move));
      if (event.shiftKey) {
        props.onReorder([entry.key], next);
        setFocusKey(entry.key);
      } else {
        setFocusKey(order[next].key);
        /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (box.current).querySelector(`[data-key="${CSS.escape(order[next].key)}"]`))?.focus();
      }
    } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      event.preventDefault();
      const wantSelected = event.key === "ArrowUp";
      if (selected.has(entry.key) !== wantSelected) props.onToggle(entry.key);
    }
  };

  return html`<div class="hand" ref=${box} data-drop="hand" role="group" aria-label=${label || t("table.your_hand")}
      style=${`--step:${step}px`}>
    ${rows.map(
      (row, r) => html`<div class="hand-row" key=${`row${r}`} style=${w < styled ? `--card-w:${w}px` : ""}>
        ${row.map((entry, i) => {
          const index = r * perRow + i;
          const classes = ["card", "hand-card"];
          if (selected.has(entry.key)) classes.push("selected");
          if (fresh?.has(entry.key)) classes.push("fresh");
          if (hinted?.has(entry.key)) classes.push("hinted");
          if (forbidden && entry.name === forbidden) classes.push("forbidden");
          return html`<button type="button" key=${entry.key} class=${classes.join(" ")}
            data-key=${entry.key} data-card=${entry.name} aria-pressed=${String(selected.has(entry.key))}
            style=${i === 0 ? "" : `margin-left:${step - w}px`}
            onPointerDown=${(/** @type {PointerEvent} */ e) => onPointerDown(e, entry)}
            onClick=${(/** @type {MouseEvent & { currentTarget: HTMLElement }} */ e) => {
              if (e.currentTarget.dataset.dragged) return;
              props.onToggle(entry.key);
            }}
            onDblClick=${() => props.onActivate?.(entry.key)}
            onFocus=${() => setFocusKey(entry.key)}
            onKeyDown=${(/** @type {KeyboardEvent} */ e) => onKeyDown(e, entry, index)}>
            <${CardSvg} name=${entry.name} wild=${isWild ? isWild(entry.name) : false} />
          </button>`;
        })}
      </div>`,
    )}
    ${order.length === 0 ? html`<div class="hand-empty muted">${t("table.hand_empty")}</div>` : null}
    <span class="card card-probe" ref=${probe} aria-hidden="true"></span>
  </div>`;
}
