// Moves in words: an action in the engine's notation ("meld 7h 8h 9h") and a bot's
// reason for it (its phrases, see docs/protocol.md) said in the player's language, for
// the hint, the replay and the review.

import { has, t } from "./i18n.js";
import { cardsText } from "./cards.js";
import { TAKE_MESSAGE } from "./game-words.js";

/**
 * @import { Card, ReasonPhrase } from "./protocol-types"
 */

/**
 * An action in the engine's notation said in words ("Meld 7♥ 8♥ 9♥").
 * @template {string | null | undefined} Action
 * @param {Action} action
 * @param {string | null} [game] the game's name: Three-Thirteen's "take" takes only the top card
 * @returns {string | Action} the action itself when it is not a move this page knows
 */
export function describeAction(action, game) {
  const [verb, ...rest] = (action || "").trim().split(/\s+/);
  switch (verb) {
    case "draw":
      return t("action.draw");
    case "take":
      return t(TAKE_MESSAGE[game ?? ""] ?? "action.take");
    case "meld":
      return t("action.meld", { cards: cardsText(rest) });
    case "extend":
      return t("action.extend", { cards: cardsText(rest.slice(1)) });
    case "discard":
      return t("action.discard", { card: cardsText(rest) });
    case "out":
      return t("action.out", { card: cardsText(rest) });
    default:
      return action;
  }
}

// reason phrases that only name the move (the hint and the review name it already)
const NAMING = new Set(["draw", "draw_stock", "discard", "meld", "add_to_meld", "take_pile", "take_card", "replace_wild"]);

/**
 * A bot's reason in the player's language, from its phrases ([{code, params}], see
 * docs/protocol.md): each phrase is the message `reason.<code>`, card params written
 * as cards and move params as moves. A first phrase that only names the move is set
 * off by a dash ("draw from the stock — the pile is empty"), the other phrases by
 * semicolons (several of them hold a colon of their own). The server's English
 * `fallback` when a phrase is unknown.
 * @param {ReasonPhrase[] | null | undefined} phrases
 * @param {string} [fallback]
 * @param {{ named?: boolean, game?: string | null }} [options] `named`: leave out a first phrase
 *   that only names the move (the text may then be empty); `game`: the game's name, for the
 *   moves the reason names
 * @returns {string}
 */
export function reasonText(phrases, fallback = "", { named = false, game = null } = {}) {
  if (!Array.isArray(phrases) || phrases.length === 0) return fallback;
  const naming = NAMING.has(phrases[0].code);
  // beside its move (a hint, a review line) a reason that only names the move says nothing
  const said = named && naming ? phrases.slice(1) : phrases;
  const parts = [];
  for (const { code, params = {} } of said) {
    if (!has(`reason.${code}`)) return fallback;
    /** @type {Record<string, unknown>} */
    const shown = {};
    for (const [name, value] of Object.entries(params)) {
      if (name === "action" || name === "usual") shown[name] = describeAction(/** @type {string} a move */ (value), game);
      else if (name === "card" || name === "cards") shown[name] = cardsText([/** @type {Card | Card[]} */ (value)].flat());
      // melds are numbered from 1 on the page, from 0 in the engine
      else if (name === "meld" && typeof value === "number") shown[name] = value + 1;
      else shown[name] = value;
    }
    parts.push(t(`reason.${code}`, shown));
  }
  if (naming && !named && parts.length > 1) return `${parts[0]} — ${parts.slice(1).join("; ")}`;
  return parts.join("; ");
}
