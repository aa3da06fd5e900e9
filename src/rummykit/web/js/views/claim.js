// A rated game abandoned: while a player of another side is gone (docs/protocol.md,
// `players[].gone`), the player may claim the win, or let the substitute play on.
// A turn-based game whose mover's time ran out (`turn.expired`): the other players
// choose, the win claimed (another side) or the move handed to the substitute.

import { html } from "../html.js";
import { formatList, t } from "../i18n.js";
import { gameViews } from "../games.js";

/**
 * @import { Seat } from "../protocol-types"
 * @import { TableController, TableState } from "../table-controller.js"
 */

/**
 * The seats of other sides that are gone, seen from ``seat`` (none for a watcher, or for
 * a player who is gone themselves).
 * @param {TableState} state
 * @returns {Seat[]}
 */
export function goneOpponents(state) {
  const seat = state.seat ?? null;
  if (seat === null || state.tableStatus !== "playing" || state.readOnly) return [];
  const players = state.players;
  if (players[seat]?.gone) return [];
  const partner = gameViews(state.game)?.partnerOf(seat, players.length) ?? null;
  return players.filter((p) => p.gone && p.seat !== seat && p.seat !== partner).map((p) => p.seat);
}

/**
 * The offer to claim the win over the players who abandoned the game.
 * @param {{ state: TableState, controller: TableController, nameOf: (seat: Seat) => string }} props
 */
export function ClaimOffer({ state, controller, nameOf }) {
  if (state.message?.days_per_move && state.turn?.expired) {
    return html`<${TimeOutChoice} state=${state} controller=${controller} nameOf=${nameOf} />`;
  }
  const gone = goneOpponents(state);
  if (!gone.length) return null;
  return html`<div class="toast info claim-offer" role="status" data-testid="claim-offer">
    <p>${t("claim.gone", { name: formatList(gone.map(nameOf)), count: gone.length })}</p>
    <button type="button" class="primary" data-testid="claim-win" onClick=${() => controller.claimWin()}>${t("claim.button")}</button>
    <span class="muted small">${t("claim.or_play_on")}</span>
  </div>`;
}

/**
 * The choice of the other players when a turn-based mover's time ran out: claim the win
 * (a player of another side) or let the substitute play that move (any other player).
 * The late player is told the others may now choose.
 * @param {{ state: TableState, controller: TableController, nameOf: (seat: Seat) => string }} props
 */
function TimeOutChoice({ state, controller, nameOf }) {
  const seat = state.seat ?? null;
  const late = state.turn?.player ?? null;
  if (late === null || seat === null || state.readOnly || state.tableStatus !== "playing") return null;
  if (seat === late) {
    return html`<div class="toast info claim-offer" role="status" data-testid="time-out-mine">
      <p>${t("turns.your_time_out")}</p></div>`;
  }
  const mayClaim = goneOpponents(state).includes(late);
  return html`<div class="toast info claim-offer" role="status" data-testid="time-out-choice">
    <p>${t("turns.time_out_of", { name: nameOf(late) })}</p>
    ${mayClaim
      ? html`<button type="button" class="primary" data-testid="claim-win" onClick=${() => controller.claimWin()}>${t("claim.button")}</button>`
      : null}
    <button type="button" data-testid="let-substitute" onClick=${() => controller.letSubstitutePlay()}>${t("turns.let_substitute")}</button>
  </div>`;
}
