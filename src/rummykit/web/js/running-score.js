// The running Burraco hand score (RULES.md 1.7), counted with the point tables the server's
// catalog gives (GET /api/games/catalog, `points`): the client keeps no copy of them.

/**
 * @import { Card } from "./protocol-types"
 * @import { BurracoMeldView } from "./model.js"
 */
/**
 * Burraco's point tables as the catalogue gives them (its model leaves them an open
 * object): card points by rank letter and "Jk",
 * the burraco bonuses and the cards a burraco needs.
 * @typedef {object} PointTables
 * @property {Record<string, number>} card_points
 * @property {number} clean_burraco_bonus
 * @property {number} dirty_burraco_bonus
 * @property {number} burraco_size
 */
/**
 * A running score: card points on the table, burraco bonuses, card points in hand (to
 * subtract) and the total.
 * @typedef {{ table: number, bonus: number, hand: number, total: number }} RunningScore
 */

/**
 * {table, bonus, hand, total}: what the player's cards would score if the hand ended now,
 * or null without the point tables.
 * @param {BurracoMeldView[]} melds the player's melds
 * @param {Card[]} hand
 * @param {PointTables | null | undefined} points
 * @returns {RunningScore | null}
 */
export function runningScore(melds, hand, points) {
  if (!points?.card_points) return null;
  const cardPoints = (/** @type {Card} */ name) => points.card_points[name === "Jk" ? "Jk" : name[0].toUpperCase()] ?? 0;
  let table = 0;
  let bonus = 0;
  for (const meld of melds) {
    for (const name of meld.cards) table += cardPoints(name);
    if (meld.cards.length >= points.burraco_size) {
      const clean = meld.wildIndex === null || meld.wildIndex === undefined;
      bonus += clean ? points.clean_burraco_bonus : points.dirty_burraco_bonus;
    }
  }
  const inHand = hand.reduce((sum, name) => sum + cardPoints(name), 0);
  return { table, bonus, hand: inHand, total: table + bonus - inHand };
}
