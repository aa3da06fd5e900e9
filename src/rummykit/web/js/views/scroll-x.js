// A wide table (a score sheet of four players on a phone) in a box that scrolls sideways
// and shows that it does: an arrow and a shadow on each side with more to see.

import { html, useLayoutEffect, useRef } from "../html.js";

/** @import { ComponentChildren } from "../../vendor/preact.module.js" */

/**
 * @param {{ children: ComponentChildren, label?: string }} props `label` names the region
 *   for screen readers (it can take the keyboard's focus to scroll)
 */
export function ScrollX({ children, label }) {
  const box = useRef(/** @type {HTMLDivElement | null} */ (null));
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const mark = () => {
      const hidden = element.scrollWidth - element.clientWidth;
      // on the frame, which does not scroll, so that the cues stay at its edges
      const frame = /** @type {HTMLElement} */ (element.parentElement);
      frame.classList.toggle("more-left", hidden > 1 && element.scrollLeft > 1);
      frame.classList.toggle("more-right", hidden > 1 && element.scrollLeft < hidden - 1);
      element.tabIndex = hidden > 1 ? 0 : -1;
    };
    mark();
    element.addEventListener("scroll", mark, { passive: true });
    const observer = new ResizeObserver(mark);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => {
      element.removeEventListener("scroll", mark);
      observer.disconnect();
    };
  });
  return html`<div class="scrolls-x-frame"><div class="scrolls-x" ref=${box} role="region" aria-label=${label}>${children}</div></div>`;
}
