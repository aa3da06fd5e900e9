// Cards that give up size until their part of the table shows everything it holds
// without scrolling: the one way the table fits its cards, used by the hand (so that the
// buttons under it stay on the screen), by the melds and by Three-Thirteen's middle.

import { useLayoutEffect, useRef, useState } from "../html.js";

/** @import { MutableRef } from "../../vendor/preact-hooks.module.js" */

/**
 * The first of `sizes` (largest first) at which the box holds all it shows without
 * scrolling, or the last of them when none does. Measured after each drawing: while the
 * box overflows, the cards take the next size, one at a time (each step is drawn before
 * the page is painted); from the first size again when `key` changes (what the zone
 * shows) or when the box is resized (the room it has). The box's own size must not
 * follow its content (a part that grows or shrinks in a flex layout, or a fixed one):
 * the cards' size would otherwise resize it, over and over.
 * @template T
 * @param {MutableRef<HTMLElement | null>} ref the zone whose cards change size
 * @param {T[]} sizes the sizes to try, largest first (at least one)
 * @param {{ key: string, box?: (zone: HTMLElement) => HTMLElement | null }} options `box`:
 *   the element that must not overflow, found from the zone (the zone itself by default)
 * @returns {T}
 */
export function useFit(ref, sizes, { key, box = (zone) => zone }) {
  const [resized, setResized] = useState(0);
  const [, redraw] = useState(0);
  // the step reached for what is measured now (the key and the box's size)
  const fitted = useRef({ measuring: "", step: 0 });
  const measuring = `${resized}|${key}`;
  if (fitted.current.measuring !== measuring) fitted.current = { measuring, step: 0 };
  const step = Math.min(fitted.current.step, sizes.length - 1);
  useLayoutEffect(() => {
    const outer = ref.current && box(ref.current);
    if (outer && step < sizes.length - 1 && outer.scrollHeight > outer.clientHeight + 1) {
      fitted.current = { measuring, step: step + 1 };
      redraw((n) => n + 1);
    }
  });
  useLayoutEffect(() => {
    const outer = ref.current && box(ref.current);
    if (!outer) return undefined;
    // its border box: a scroll bar that comes and goes with the content is no resize
    const size = () => `${outer.offsetWidth}x${outer.offsetHeight}`;
    let seen = size();
    const observer = new ResizeObserver(() => {
      if (size() === seen) return;
      seen = size();
      setResized((n) => n + 1);
    });
    observer.observe(outer);
    return () => observer.disconnect();
  }, []);
  return sizes[step];
}

/** The scales of a zone's cards, from their size as the style sets it to 0.6 of it. */
export const SCALES = [1, 0.9, 0.81, 0.729, 0.6561, 0.6];

/**
 * The style that scales a zone's cards (`--fit`, by which the zone's `--card-w` are
 * multiplied): none at full size.
 * @param {number} scale one of SCALES
 * @returns {string}
 */
export function fitStyle(scale) {
  return scale < 1 ? `--fit:${scale.toFixed(3)}` : "";
}
