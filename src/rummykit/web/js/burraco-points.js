// Card points of Burraco (RULES.md 1.1), used only to show the running hand score.

import { parseCard } from "./cards.js";

export function cardPoints(name) {
  const card = parseCard(name);
  if (card.joker) return 30;
  if (card.rank === 2) return 20;
  if (card.rank === 1) return 15;
  if (card.rank >= 8) return 10;
  return 5;
}

/** {table, bonus, hand, total}: what the player's cards would score if the hand ended now. */
export function runningScore(melds, hand) {
  let table = 0;
  let bonus = 0;
  for (const meld of melds) {
    for (const name of meld.cards) table += cardPoints(name);
    if (meld.cards.length >= 7) bonus += meld.wildIndex === null || meld.wildIndex === undefined ? 200 : 100;
  }
  const inHand = hand.reduce((sum, name) => sum + cardPoints(name), 0);
  return { table, bonus, hand: inHand, total: table + bonus - inHand };
}
