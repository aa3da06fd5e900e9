// The legal-move list the server sends to the player to move, indexed for the board:
// which buttons to offer and which melds accept the selected cards.

import { bagKey } from "./cards.js";

/**
 * The legal actions by what the board offers: `known` is false when the list is empty
 * (the server sends the list to the player to move only); `melds` maps a bag of cards
 * (`bagKey`) to its action, `extensions` "meld id|bag" to its action, `discards` and
 * `outs` a card to its action; `extendable` holds the ids of melds that accept a card.
 * @typedef {object} LegalIndex
 * @property {boolean} known
 * @property {boolean} draw
 * @property {boolean} take
 * @property {Map<string, string>} melds
 * @property {Map<string, string>} extensions
 * @property {Set<number>} extendable
 * @property {Map<string, string>} discards
 * @property {Map<string, string>} outs
 */

/**
 * Index the legal actions (the engine's notation, "meld 3h 4h 5h") for the board.
 * @param {string[]} legal
 * @returns {LegalIndex}
 */
export function indexLegal(legal) {
  /** @type {LegalIndex} */
  const index = {
    known: legal.length > 0,
    draw: false,
    take: false,
    melds: new Map(),
    extensions: new Map(),
    extendable: new Set(), // meld ids that accept some card
    discards: new Map(),
    outs: new Map(),
  };
  for (const action of legal) {
    const [verb, ...rest] = action.trim().split(/\s+/);
    if (verb === "draw") index.draw = true;
    else if (verb === "take") index.take = true;
    else if (verb === "meld") index.melds.set(bagKey(rest), action);
    else if (verb === "extend") {
      const [id, ...cards] = rest;
      index.extensions.set(`${id}|${bagKey(cards)}`, action);
      index.extendable.add(Number(id));
    } else if (verb === "discard") index.discards.set(rest[0], action);
    else if (verb === "out") index.outs.set(rest[0], action);
  }
  return index;
}

/**
 * The cards an action names (for highlighting a hint).
 * @param {string | null | undefined} action
 * @returns {string[]}
 */
export function actionCards(action) {
  const [verb, ...rest] = (action || "").trim().split(/\s+/);
  if (verb === "extend") return rest.slice(1);
  if (["meld", "discard", "out"].includes(verb)) return rest;
  return [];
}
