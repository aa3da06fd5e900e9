// The running Burraco hand score (RULES.md 1.7), counted with the point tables the server's
// catalog gives (GET /api/games/catalog, `points`): the client keeps no copy of them.

/**
 * {table, bonus, hand, total}: what the player's cards would score if the hand ended now,
 * or null without the point tables.
 */
export function runningScore(melds, hand, points) {
  if (!points?.card_points) return null;
  const cardPoints = (name) => points.card_points[name === "Jk" ? "Jk" : name[0].toUpperCase()] ?? 0;
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
