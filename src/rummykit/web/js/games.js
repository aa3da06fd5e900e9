// Each game's part of the browser client, by the game's name (the names the server's
// catalog lists): the one module that names the games' views. Everything else asks
// gameViews(name) instead of asking which game it is. A new game adds its view module
// (views/<game>.js), its observation reader (model.js) and one entry here.

import { BurracoBoard, BurracoLastHand, BurracoScores, partnerOf } from "./views/burraco.js";
import { ThirteenBoard, ThirteenLastRound, ThirteenScores } from "./views/three-thirteen.js";

/**
 * @import { Card } from "./protocol-types"
 */

/**
 * One game's views.
 * @typedef {object} GameViews
 * @property {typeof BurracoBoard | typeof ThirteenBoard} Board the table
 * @property {typeof BurracoScores | typeof ThirteenScores} Scores the side panel's scores
 * @property {typeof BurracoLastHand | typeof ThirteenLastRound} LastHand the end of the
 *   last hand (round) in the game-over dialog
 * @property {Card[]} fan the cards the lobby's tile fans out
 * @property {(card: Card) => boolean} wildInFan which of them to draw as wild
 * @property {string} reviewPoints the message that says a review item's points
 * @property {string} reviewPointsWorse the message for an item whose suggested move came out
 *   worse (points below zero, said as a positive number)
 * @property {Record<string, (rules: Record<string, unknown>) => boolean>} shownWhen rule
 *   options the new-table form shows only when the other options say they apply
 * @property {string[]} roundOptions rule options that name a round (chosen by its number
 *   and the cards it deals)
 * @property {(seat: number, players: number) => number | null} partnerOf the partner of a
 *   seat at a table of `players` (partners pick each other by the seats they take), or
 *   null where everyone plays alone
 */

/** @type {Record<string, GameViews>} */
const GAME_VIEWS = {
  burraco: {
    Board: BurracoBoard,
    Scores: BurracoScores,
    LastHand: BurracoLastHand,
    fan: ["Jk", "7h", "8h", "9h", "2s"],
    wildInFan: () => false,
    reviewPoints: "review.points",
    reviewPointsWorse: "review.points_less",
    // a target score and a hand limit only mean something in a game played to a target
    shownWhen: {
      target: (rules) => rules.mode === "target",
      max_hands: (rules) => rules.mode === "target",
    },
    roundOptions: [],
    partnerOf,
  },
  "three-thirteen": {
    Board: ThirteenBoard,
    Scores: ThirteenScores,
    LastHand: ThirteenLastRound,
    fan: ["3c", "3d", "4s", "5s", "6s"],
    wildInFan: (card) => card.startsWith("3"), // round 1's wild rank
    reviewPoints: "review.points_13",
    reviewPointsWorse: "review.points_13_more",
    shownWhen: {},
    roundOptions: ["first_round", "last_round"],
    partnerOf: () => null,
  },
};

/**
 * The views of the game called `name`, or null for a game this client cannot show.
 * @param {string | null | undefined} name
 * @returns {GameViews | null}
 */
export function gameViews(name) {
  return (name && Object.hasOwn(GAME_VIEWS, name) && GAME_VIEWS[name]) || null;
}
