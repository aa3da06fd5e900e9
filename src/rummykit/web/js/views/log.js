// The table's move log: each engine event told in a sentence of the player's language.

import { html, useEffect, useRef } from "../html.js";
import { t } from "../i18n.js";
import { cardText, cardsText } from "../cards.js";
import { eventKind } from "../model.js";

/**
 * @import { BurracoHandResult, Card, GameEvent, Seat, ThreeThirteenHandResult } from "../protocol-types"
 * @import { LogEntry } from "../table-controller.js"
 */
/**
 * An event of either game as the log tells it: its kind, and the fields of the kinds
 * that have them (docs/observations.md).
 * @typedef {{ event: GameEvent["event"], player?: Seat, round_number?: number,
 *   wild_rank?: number, hand_number?: number, first_player?: Seat, card?: Card | null,
 *   cards?: Card[] | null, meld?: { cards: Card[] }, discard?: Card, stock_count?: number,
 *   closer?: Seat | null, result?: Partial<BurracoHandResult & ThreeThirteenHandResult> }} LoggedEvent
 */

/**
 * One event as text, or null for events not worth a line. Each kind has the fields
 * its case reads.
 * @param {LoggedEvent} event
 * @param {(seat: Seat) => string} nameOf
 * @param {Seat | null} seat the viewer's seat (its moves are told as "you")
 * @returns {string | null}
 */
export function describeEvent(event, nameOf, seat) {
  const kind = eventKind(event);
  const self = event.player !== undefined && event.player === seat;
  const who = event.player !== undefined ? nameOf(event.player) : "";
  const say = (/** @type {string} */ key, /** @type {Record<string, unknown>} */ params = {}) => t(self ? `log.you.${key}` : `log.${key}`, { name: who, ...params });
  switch (kind) {
    case "hand_dealt":
      if (event.round_number !== undefined) {
        return t("log.round_dealt", { round: event.round_number, rank: t(`rank.${event.wild_rank}`) });
      }
      return t("log.hand_dealt", { n: (event.hand_number ?? 0) + 1, name: nameOf(event.first_player ?? 0) });
    case "stock_drawn":
      return event.card ? say("drew_card", { card: cardText(event.card) }) : say("drew");
    case "pile_taken":
      return say("took_pile", { count: /** @type {Card[]} */ (event.cards).length, cards: cardsText(/** @type {Card[]} */ (event.cards)) });
    case "discard_taken":
      return say("took", { card: cardText(/** @type {Card} */ (event.card)) });
    case "melded":
      return say("melded", { cards: cardsText(/** @type {{ cards: Card[] }} */ (event.meld).cards) });
    case "extended":
      return say("extended", { cards: cardsText(/** @type {Card[]} */ (event.cards)) });
    case "discarded":
      return say("discarded", { card: cardText(/** @type {Card} */ (event.card)) });
    case "pozzetto_taken":
      return say("pozzetto");
    case "pozzetto_to_stock":
      return t("log.pozzetto_to_stock");
    case "went_out":
      return say("went_out", { card: cardText(/** @type {Card} */ (event.discard)) });
    case "stock_reshuffled":
      return t("log.reshuffled", { count: event.stock_count });
    case "hand_ended":
      if (event.result?.round_number !== undefined) {
        return t("log.round_ended", { round: event.result.round_number });
      }
      return event.closer !== null && event.closer !== undefined
        ? t("log.hand_closed", { name: nameOf(event.closer) })
        : t("log.hand_ended");
    case "game_ended":
      return t("log.game_ended");
    default:
      return null;
  }
}

/**
 * Why the computer made a seat's move (the turn timer ran out, or its player is away),
 * as a sentence; null for a move its player or bot made.
 * @param {LogEntry["actor"] | undefined} actor
 * @param {Seat | undefined} player the seat the move was made for
 * @param {(seat: Seat) => string} nameOf
 * @param {Seat | null} seat the viewer's seat
 * @returns {string | null}
 */
export function standInText(actor, player, nameOf, seat) {
  if ((actor !== "timeout" && actor !== "substitute") || player === undefined || player === null) return null;
  const why = actor === "timeout" ? "timeout" : "away";
  return player === seat ? t(`standin.${why}_you`) : t(`standin.${why}`, { name: nameOf(player) });
}

/**
 * The move log, newest last; the viewer's own moves marked. A run of moves the computer
 * made for a person begins with a line saying why, and each of its moves says so.
 * @param {{ log: LogEntry[], nameOf: (seat: Seat) => string, seat: Seat | null }} props
 */
export function MoveLog({ log, nameOf, seat }) {
  const end = useRef(/** @type {HTMLElement | null} */ (null));
  useEffect(() => {
    end.current?.scrollIntoView({ block: "nearest" });
  }, [log.length]);
  /** @type {{ key: string, text: string, className: string }[]} */
  const lines = [];
  /** @type {string | null} */
  let run = null; // the stand-in run under way: its actor and seat
  log.forEach((entry, i) => {
    const text = describeEvent(entry.event, nameOf, seat);
    if (!text) return;
    const player = entry.event.player;
    const notice = standInText(entry.actor, player, nameOf, seat);
    const runKey = notice ? `${entry.actor}:${player}` : null;
    if (notice && runKey !== run) {
      lines.push({ key: `n${entry.index}`, text: notice, className: "stand-in-notice" });
    }
    if (entry.actor) run = runKey;
    lines.push({
      key: String(i),
      text: notice ? `${text} ${t("log.by_computer")}` : text,
      className: `${player === seat ? "mine" : ""}${notice ? " by-computer" : ""}`.trim(),
    });
  });
  return html`<ol class="move-log" aria-live="polite">
    ${lines.map((line) => html`<li key=${line.key} class=${line.className}>${line.text}</li>`)}
    <li ref=${end} class="log-end" aria-hidden="true"></li>
  </ol>`;
}
