// The table's move log: each engine event told in a sentence of the player's language.

import { html, useEffect, useRef } from "../html.js";
import { t } from "../i18n.js";
import { cardText, cardsText, rankText } from "../cards.js";
import { eventKind } from "../model.js";

/** One event as text, or null for events not worth a line. */
export function describeEvent(event, nameOf, seat) {
  const kind = eventKind(event);
  const self = event.player !== undefined && event.player === seat;
  const who = event.player !== undefined ? nameOf(event.player) : "";
  const say = (key, params = {}) => t(self ? `log.you.${key}` : `log.${key}`, { name: who, ...params });
  switch (kind) {
    case "hand_dealt":
      if (event.round_number !== undefined) {
        return t("log.round_dealt", { round: event.round_number, rank: rankText(event.wild_rank) });
      }
      return t("log.hand_dealt", { n: (event.hand_number ?? 0) + 1, name: nameOf(event.first_player ?? 0) });
    case "stock_drawn":
      return event.card ? say("drew_card", { card: cardText(event.card) }) : say("drew");
    case "pile_taken":
      return say("took_pile", { count: event.cards.length, cards: cardsText(event.cards) });
    case "discard_taken":
      return say("took", { card: cardText(event.card) });
    case "melded":
      return say("melded", { cards: cardsText(event.meld.cards) });
    case "extended":
      return say("extended", { cards: cardsText(event.cards) });
    case "discarded":
      return say("discarded", { card: cardText(event.card) });
    case "pozzetto_taken":
      return say("pozzetto");
    case "pozzetto_to_stock":
      return t("log.pozzetto_to_stock");
    case "went_out":
      return say("went_out", { card: cardText(event.discard) });
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

export function MoveLog({ log, nameOf, seat }) {
  const end = useRef(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: "nearest" });
  }, [log.length]);
  const lines = log
    .map((entry, i) => ({ i, text: describeEvent(entry.event, nameOf, seat), player: entry.event.player }))
    .filter((line) => line.text);
  return html`<ol class="move-log" aria-live="polite">
    ${lines.map(
      (line) => html`<li key=${line.i} class=${line.player === seat ? "mine" : ""}>${line.text}</li>`,
    )}
    <li ref=${end} class="log-end" aria-hidden="true"></li>
  </ol>`;
}
