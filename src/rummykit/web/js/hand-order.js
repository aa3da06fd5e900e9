// The player's own order of the hand. Copies of a card are told apart only on this page
// (by a key such as "7h#2"); the server knows cards by name alone.

import { rankKey, suitKey } from "./cards.js";

let nextKey = 1;

/**
 * Carry the previous order over to a new hand: cards still held keep their place,
 * new cards get new keys. Returns {order: [{key, name}], fresh: Set of new keys}.
 */
export function reconcile(previous, names, mode) {
  const left = new Map();
  for (const name of names) left.set(name, (left.get(name) || 0) + 1);
  const order = [];
  for (const entry of previous) {
    const count = left.get(entry.name) || 0;
    if (count > 0) {
      order.push(entry);
      left.set(entry.name, count - 1);
    }
  }
  const fresh = new Set();
  for (const name of names) {
    const count = left.get(name) || 0;
    if (count > 0) {
      const entry = { key: `${name}#${nextKey++}`, name };
      order.push(entry);
      fresh.add(entry.key);
      left.set(name, count - 1);
    }
  }
  return { order: mode === "custom" ? order : sortOrder(order, mode), fresh };
}

export function sortOrder(order, mode) {
  const key = mode === "rank" ? rankKey : suitKey;
  return [...order].sort((a, b) => key(a.name) - key(b.name) || a.key.localeCompare(b.key));
}

/** Move the entries with `keys` to position `index` (counted in the order without them). */
export function moveTo(order, keys, index) {
  const moving = order.filter((e) => keys.includes(e.key));
  const rest = order.filter((e) => !keys.includes(e.key));
  const at = Math.max(0, Math.min(index, rest.length));
  return [...rest.slice(0, at), ...moving, ...rest.slice(at)];
}
