// A player's plate beside the board: who sits there, connected or away, cards held, total,
// and the turn clock while it is their turn. The game boards show it; the table page
// shows the boards, so it lives here rather than in table.js (no import circle).

import { html } from "../html.js";
import { t } from "../i18n.js";
import { useTicker } from "../hooks.js";
import { IconBot, IconCards } from "../icons.js";
import { seatName } from "./common.js";

/**
 * @import { Seat } from "../protocol-types"
 * @import { ComponentChildren } from "../../vendor/preact.module.js"
 * @import { TableState } from "../table-controller.js"
 * @import { BoardState } from "./board-parts.js"
 */

/**
 * Seconds left on the turn clock, counted down locally from the last message.
 * @param {TableState["turn"] | undefined} turn
 * @returns {number | null}
 */
export function secondsLeft(turn) {
  if (!turn) return null;
  if (typeof turn.seconds_left === "number") {
    return Math.max(0, turn.seconds_left - (Date.now() - turn.receivedAt) / 1000);
  }
  if (typeof turn.deadline === "number") return Math.max(0, turn.deadline - Date.now() / 1000);
  return null;
}

/**
 * The seconds left of the turn, as a number and a shrinking ring (`total`: the turn's
 * length in seconds, when known).
 * @param {{ turn: TableState["turn"], total?: number | null }} props
 */
export function TurnClock({ turn, total }) {
  useTicker(250, Boolean(turn));
  const left = secondsLeft(turn);
  if (left === null) return null;
  const fraction = total ? Math.max(0, Math.min(1, left / total)) : 1;
  const urgent = left <= 10;
  return html`<span class=${urgent ? "turn-clock urgent" : "turn-clock"} role="timer"
      aria-label=${t("table.time_left", { seconds: Math.ceil(left) })} style=${`--fraction:${fraction}`}>
    <span class="clock-ring" aria-hidden="true"></span>${Math.ceil(left)}s</span>`;
}

/**
 * A player's plate: name, bot or person, connected, cards held, total, turn and clock.
 * @param {{ state: BoardState, seat: Seat, children?: ComponentChildren, compact?: boolean }} props
 */
export function PlayerPlate({ state, seat, children, compact = false }) {
  const { players, view, turn } = state;
  const player = /** @type {Partial<TableState["players"][number]>} */ (players.find((p) => p.seat === seat) || players[seat] || {});
  const isTurn = view.currentPlayer === seat && !view.gameOver;
  const connected = player.kind === "bot" || player.connected;
  const turnSeconds = state.message?.turn_seconds ?? state.turnSeconds ?? null;
  // a replay may show another seat's view: "you" is still the viewer's own seat, if any
  return html`<div class=${`player-plate${isTurn ? " is-turn" : ""}${compact ? " compact" : ""}`}
      data-seat=${seat} aria-current=${isTurn ? "true" : null}>
    <span class=${connected ? "presence on" : "presence off"}
      title=${connected ? t("table.connected") : t("table.disconnected")}
      aria-label=${connected ? t("table.connected") : t("table.disconnected")}></span>
    <span class="plate-name">${player.kind === "bot" ? html`<${IconBot} /> ` : ""}${seatName(players, seat)}${seat === (state.ownSeat !== undefined ? state.ownSeat : state.seat) ? html` <span class="muted">(${t("table.you")})</span>` : null}</span>
    ${view.dealer === seat ? html`<span class="chip dealer" title=${t("table.dealer")}>D</span>` : null}
    <span class="plate-cards" title=${t("table.cards_in_hand")}><${IconCards} /> ${view.handSizes[seat] ?? 0}</span>
    <span class="plate-total" title=${t("table.total")}>${view.totals[seat] ?? 0}</span>
    ${children}
    ${isTurn ? html`<${TurnClock} turn=${turn} total=${turnSeconds} />` : null}
    ${!connected && player.name ? html`<span class="chip away">${t("table.away")}</span>` : null}
  </div>`;
}
