// A player's plate beside the board: who sits there, connected or away, cards held, total,
// and the turn clock while it is their turn. The game boards show it; the table page
// shows the boards, so it lives here rather than in table.js (no import circle).

import { html, useRef } from "../html.js";
import { t } from "../i18n.js";
import { useTicker } from "../hooks.js";
import { IconBot, IconCards } from "../icons.js";
import { play } from "../sound.js";
import { seatName, seatShortName } from "./common.js";
import { DaysClock } from "./days-clock.js";

/**
 * @import { Seat } from "../protocol-types"
 * @import { ComponentChildren } from "../../vendor/preact.module.js"
 * @import { BoardState, TableState } from "../table-controller.js"
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

// the last seconds of a turn: the clock turns red and, on the player's own turn, beeps once
export const WARN_SECONDS = 10;

/**
 * The seconds left of the turn, as a number and a ring (that empties as the mover's bank
 * is spent). At a table with a time bank the turn time runs first, then the mover's
 * bank (shown as such). `mine`: the viewer's own turn, which warns with a sound when
 * its last seconds begin.
 * @param {{ turn: TableState["turn"], mine?: boolean }} props
 */
export function TurnClock({ turn, mine = false }) {
  useTicker(250, Boolean(turn));
  const warned = useRef(/** @type {number | null | undefined} */ (undefined));
  const left = secondsLeft(turn);
  if (left === null || !turn) return null;
  const bank = turn.banks?.[turn.player] ?? 0;
  const inBank = bank > 0 && left <= bank;
  const shown = inBank ? left : left - bank;
  const fraction = inBank ? Math.min(1, left / bank) : 1;
  const urgent = left <= WARN_SECONDS;
  if (urgent && mine && warned.current !== turn.deadline) {
    warned.current = turn.deadline;
    play("warn");
  }
  const label = inBank
    ? t("table.bank_left", { seconds: Math.ceil(left) })
    : t("table.time_left", { seconds: Math.ceil(shown) });
  return html`<span class=${`turn-clock${urgent ? " urgent" : ""}${inBank ? " in-bank" : ""}`} role="timer"
      aria-label=${label} title=${bank > 0 && !inBank ? t("table.bank_after", { seconds: Math.round(bank) }) : null}
      style=${`--fraction:${fraction}`}>
    <span class="clock-ring" aria-hidden="true"></span>${t("table.clock_s", { seconds: Math.ceil(shown) })}${inBank ? html` <span class="bank-label">${t("table.bank")}</span>` : bank > 0 ? html` <span class="bank-label muted">+${Math.round(bank)}</span>` : null}</span>`;
}

/**
 * A player's plate: name, bot or person, connected, cards held, total, turn and clock.
 * `short`: the name is also given in few words, which a narrow screen shows instead
 * ("Computer 3" for "Computer 3 (Medium)").
 * @param {{ state: BoardState, seat: Seat, children?: ComponentChildren, compact?: boolean,
 *   short?: boolean }} props
 */
export function PlayerPlate({ state, seat, children, compact = false, short = false }) {
  const { players, view, turn } = state;
  const player = /** @type {Partial<TableState["players"][number]>} */ (players.find((p) => p.seat === seat) || {});
  const isTurn = view.currentPlayer === seat && !view.gameOver;
  const connected = player.kind === "bot" || player.connected;
  // a replay may show another seat's view: "you" is still the viewer's own seat, if any
  return html`<div class=${`player-plate${isTurn ? " is-turn" : ""}${compact ? " compact" : ""}`}
      data-seat=${seat} aria-current=${isTurn ? "true" : null}>
    <span class=${connected ? "presence on" : "presence off"} role="img"
      title=${connected ? t("table.connected") : t("table.disconnected")}
      aria-label=${connected ? t("table.connected") : t("table.disconnected")}></span>
    <span class="plate-name">${player.kind === "bot" ? html`<${IconBot} /> ` : ""}${short
      ? html`<span class="name-full">${seatName(players, seat)}</span><span class="name-short" title=${seatName(players, seat)}>${seatShortName(players, seat)}</span>`
      : seatName(players, seat)}${seat === (state.ownSeat !== undefined ? state.ownSeat : state.seat) ? html` <span class="muted">(${t("table.you")})</span>` : null}</span>
    ${view.dealer === seat ? html`<span class="chip dealer" data-testid="dealer" title=${t("table.dealer")}>${t("table.dealer_chip")}</span>` : null}
    <span class="plate-cards" title=${t("table.cards_in_hand")}><${IconCards} /> ${view.handSizes[seat] ?? 0}</span>
    <span class="plate-total" title=${t("table.total")}>${view.totals[seat] ?? 0}</span>
    ${children}
    ${isTurn
      ? state.message?.days_per_move
        ? html`<${DaysClock} turn=${turn} />`
        : html`<${TurnClock} turn=${turn} mine=${seat === state.seat} />`
      : null}
    ${!connected && player.name && !state.message?.days_per_move ? html`<span class="chip away">${t("table.away")}</span>` : null}
  </div>`;
}
