// Card names as the engine writes them ("7h", "Th", "Jk"): parsing, sorting, text.
// The client keeps cards by name only; which physical copy a player holds is never known.

import { rankSymbol, setCardFormatter, t } from "./i18n.js";

/** @import { Card } from "./protocol-types" */

/**
 * A card read from its name: a joker (rank 0, no suit), or a rank 1..13 (ace low) of a
 * suit "c", "d", "h" or "s".
 * @typedef {{ rank: 0, suit: null, joker: true, name: "Jk" }
 *   | { rank: number, suit: string, joker: false, name: Card }} ParsedCard
 */

export const RANKS = "A23456789TJQK";
export const SUITS = "cdhs";
/** @type {Record<string, string>} */
export const SUIT_SYMBOL = { c: "♣", d: "♦", h: "♥", s: "♠" };
/** @type {Record<string, string>} */
const RANK_TEXT = { T: "10" };

/**
 * {rank: 1..13 (0 for a joker), suit: "c"|"d"|"h"|"s"|null, joker, name}
 * @param {Card} name
 * @returns {ParsedCard}
 */
export function parseCard(name) {
  if (name === "Jk" || name === "JK" || name === "jk") {
    return { rank: 0, suit: null, joker: true, name: "Jk" };
  }
  const rank = RANKS.indexOf(name[0].toUpperCase()) + 1;
  const suit = name[1].toLowerCase();
  return { rank, suit, joker: false, name: RANKS[rank - 1] + suit };
}

/**
 * The index printed on a card of `rank` (1..13) in the player's language.
 * @param {number} rank
 * @returns {string}
 */
export function rankText(rank) {
  const letter = RANKS[rank - 1];
  return rankSymbol(letter) ?? RANK_TEXT[letter] ?? letter;
}

/**
 * A card as logs and messages write it: its rank in the language's letters and its
 * suit's symbol ("10♥", "D♠", "В♠"); a joker by its name in the language ("Joker",
 * "Джокер").
 * @param {Card} name
 * @returns {string}
 */
export function cardText(name) {
  const card = parseCard(name);
  if (card.joker) return t("card.joker");
  return rankText(card.rank) + SUIT_SYMBOL[card.suit];
}
setCardFormatter(cardText);

/**
 * Cards as text, separated by spaces.
 * @param {Card[]} names
 * @returns {string}
 */
export function cardsText(names) {
  return names.map(cardText).join(" ");
}

/** @type {Record<string, number>} */
const SUIT_ORDER = { s: 0, h: 1, c: 2, d: 3 }; // alternating colours in the hand

/**
 * Sort key by suit (alternating colours) then rank; jokers last.
 * @param {Card} name
 * @returns {number}
 */
export function suitKey(name) {
  const card = parseCard(name);
  return card.joker ? 1000 : SUIT_ORDER[card.suit] * 20 + card.rank;
}

/**
 * Sort key by rank then suit, aces low; jokers last.
 * @param {Card} name
 * @returns {number}
 */
export function rankKey(name) {
  const card = parseCard(name);
  return card.joker ? 1000 : card.rank * 10 + SUIT_ORDER[card.suit];
}

/**
 * A multiset of names as a sorted key, to compare card groups regardless of order.
 * @param {Iterable<Card>} names
 * @returns {string}
 */
export function bagKey(names) {
  return [...names].sort().join(" ");
}

/**
 * Remove one copy of each of `taken` from `names` (a new array).
 * @param {Card[]} names
 * @param {Card[]} taken
 * @returns {Card[]}
 */
export function withoutCards(names, taken) {
  const rest = [...names];
  for (const name of taken) {
    const index = rest.indexOf(name);
    if (index >= 0) rest.splice(index, 1);
  }
  return rest;
}
