// Keyboard shortcuts, the table's and the replay's alike. They are read by the key's
// place on the keyboard (event.code), not by the character it types (event.key): on a
// Cyrillic layout the D key types "в", and the shortcut must still work.

import { useEffect, useRef } from "./html.js";

/**
 * The shortcut a key press names: the Latin letter or digit printed at that place on an
 * English keyboard ("d", "1"), or the key's name in lower case ("delete", "escape").
 * @param {{ code?: string, key?: string }} event
 * @returns {string}
 */
export function shortcutKey(event) {
  const code = event.code || "";
  const letter = /^Key([A-Z])$/.exec(code);
  if (letter) return letter[1].toLowerCase();
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(code);
  if (digit) return digit[1];
  if (code === "NumpadDecimal" || code === "NumpadEnter" || !code) return (event.key || "").toLowerCase();
  return code.toLowerCase();
}

/**
 * Keyboard shortcuts for the page while nothing else wants the key: not while typing in
 * a field, not with Ctrl, Alt or the Command key held (the browser's own shortcuts),
 * not while a dialog is open. `handler` hears the key as shortcutKey names it and says
 * whether it used it (the key then does nothing else). The latest handler is always the
 * one called, so a key pressed right after a change acts on the page as it now stands.
 * @param {(key: string, event: KeyboardEvent) => boolean | undefined} handler
 */
export function useKeys(handler) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const onKey = (/** @type {KeyboardEvent} */ event) => {
      const tag = /** @type {HTMLElement | null} */ (event.target)?.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (document.querySelector(".dialog-backdrop")) return;
      if (latest.current(shortcutKey(event), event)) event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
