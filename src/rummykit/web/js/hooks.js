// Hooks that tie Preact components to the app's stores.

import { useEffect, useState } from "./html.js";

/** @import { Store } from "./store.js" */

/**
 * The store's current value; the component re-renders when it changes.
 * @template {object} T
 * @param {Store<T>} store
 * @returns {T}
 */
export function useStore(store) {
  const [value, setValue] = useState(store.get());
  useEffect(() => {
    setValue(store.get());
    return store.subscribe(setValue);
  }, [store]);
  return value;
}

/**
 * Re-render every `ms` milliseconds while `active` (for clocks).
 * @param {number} ms
 * @param {boolean} [active]
 */
export function useTicker(ms, active = true) {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const id = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(id);
  }, [ms, active]);
}
