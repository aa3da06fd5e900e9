// The legal-move list the server sends to the player to move, indexed for the board:
// which buttons to offer and which melds accept the selected cards.

import { bagKey } from "./cards.js";

export function indexLegal(legal) {
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

/** The cards an action names (for highlighting a hint). */
export function actionCards(action) {
  const [verb, ...rest] = (action || "").trim().split(/\s+/);
  if (verb === "extend") return rest.slice(1);
  if (["meld", "discard", "out"].includes(verb)) return rest;
  return [];
}
