// The player's own order of the hand. Copies of a card are told apart only on this page
// (by a key such as "7h#2"); the server knows cards by name alone.

import { rankKey, suitKey } from "./cards.js";

/** @import { Card } from "./protocol-types" */

/**
 * One card of the hand: its page-only `key` ("7h#2") and its name.
 * @typedef {{ key: string, name: Card }} HandEntry
 */
/**
 * How the hand is ordered: by suit, by rank, or as the player arranged it.
 * @typedef {"suit" | "rank" | "custom"} HandMode
 */

let nextKey = 1;

/**
 * Carry the previous order over to a new hand: cards still held keep their place,
 * new cards get new keys. Returns {order: [{key, name}], fresh: Set of new keys}.
 * @param {HandEntry[]} previous
 * @param {Card[]} names
 * @param {HandMode} mode
 * @returns {{ order: HandEntry[], fresh: Set<string> }}
 */
export function reconcile(previous, names, mode) {
  /** @type {Map<Card, number>} */
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

/**
 * The entries sorted by suit (`mode` "suit") or rank ("rank"); equal cards keep the order
 * of their keys.
 * @param {HandEntry[]} order
 * @param {HandMode} mode
 * @returns {HandEntry[]}
 */
export function sortOrder(order, mode) {
  const key = mode === "rank" ? rankKey : suitKey;
  return [...order].sort((a, b) => key(a.name) - key(b.name) || a.key.localeCompare(b.key));
}

/**
 * Move the entries with `keys` to position `index` (counted in the order without them).
 * @param {HandEntry[]} order
 * @param {string[]} keys
 * @param {number} index
 * @returns {HandEntry[]}
 */
export function moveTo(order, keys, index) {
  const moving = order.filter((e) => keys.includes(e.key));
  const rest = order.filter((e) => !keys.includes(e.key));
  const at = Math.max(0, Math.min(index, rest.length));
  return [...rest.slice(0, at), ...moving, ...rest.slice(at)];
}
