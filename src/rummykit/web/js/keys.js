// Keyboard shortcuts are read by the key's place on the keyboard (event.code), not by
// the character it types (event.key): on a Cyrillic layout the D key types "в", and the
// shortcut must still work.

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
