// Cards that shrink to fit their zone.

import { useLayoutEffect, useRef } from "../html.js";

/**
 * Shrink the cards of a scrolling zone step by step (its `--fit`, a scale its cards'
 * `--card-w` are multiplied by) until everything in it shows without scrolling, down to
 * `smallest`; measured again whenever `key` changes or the zone is resized.  Returns the
 * ref to put on the zone.
 * @param {unknown} key
 * @param {number} [smallest]
 */
export function useFitCards(key, smallest = 0.6) {
  const ref = useRef(/** @type {HTMLElement | null} */ (null));
  useLayoutEffect(() => {
    const zone = ref.current;
    if (!zone) return undefined;
    let measured = 0;
    const fit = () => {
      zone.style.removeProperty("--fit");
      let scale = 1;
      while (zone.scrollHeight > zone.clientHeight + 1 && scale > smallest) {
        scale = Math.max(smallest, scale * 0.9);
        zone.style.setProperty("--fit", scale.toFixed(3));
      }
    };
    fit();
    const observer = new ResizeObserver(() => {
      const now = zone.clientWidth * 10000 + zone.clientHeight;
      if (now !== measured) fit();
      measured = now;
    });
    observer.observe(zone);
    return () => observer.disconnect();
  }, [key]);
  return ref;
}
