// The strongest bot's hint on the player's turn: the button that asks for it (or, at a
// table that gives none, a line saying so) and the bubble that shows it.

import { html } from "../html.js";
import { t } from "../i18n.js";
import { IconBulb } from "../icons.js";
import { actionCards } from "../legal.js";
import { describeAction, reasonText } from "../move-words.js";

/**
 * @import { BoardState, TableController, TableState } from "../table-controller.js"
 * @import { HandState } from "./hand-state.js"
 */

/**
 * Whether this table gives hints: the server's `hints` in the state on screen (false
 * while a rated or tournament game is played).
 * @param {TableState} state
 */
export function hintsAllowed(state) {
  return state.message?.hints !== false;
}

/**
 * The hint button: asks the strongest bot for a hint on the player's turn.  Where the
 * table gives no hints (a rated or tournament game), a short line in its place says so.
 * @param {{ state: BoardState, controller: Pick<TableController, "askHint">, myTurn: boolean }} props
 */
export function HintButton({ state, controller, myTurn }) {
  if (!myTurn) return null;
  if (!hintsAllowed(state))
    return html`<span class="hints-off" role="note" data-testid="hints-off">${t("table.hints_off")}</span>`;
  return html`<div class="hint-area">
    <button type="button" class="small hint-button" disabled=${state.hintPending || state.pending}
      onClick=${() => controller.askHint()} title=${t("table.hint_key")}
      aria-label=${state.hintPending ? t("table.thinking") : t("table.hint")}><${IconBulb} /> <span class="long">${state.hintPending ? t("table.thinking") : t("table.hint")}</span></button>
  </div>`;
}

/**
 * The hint once it comes: its move, its reason, and buttons to show its cards and to play
 * it. It takes a place of its own under the player's plate (the melds above give up the
 * height), so it never lies over the meld, the pile or the cards it points at.
 * @param {{ state: BoardState, controller: Pick<TableController, "act" | "dismissHint">,
 *   hand: HandState, myTurn: boolean }} props
 */
export function HintBubble({ state, controller, hand, myTurn }) {
  const hint = state.hint;
  if (!myTurn || !hint || !hintsAllowed(state)) return null;
  const why = hint.reason ? reasonText(hint.reason_phrases, hint.reason, { named: true, game: state.game }) : "";
  return html`<div class="hint-bubble" role="status" data-action=${hint.action}>
    <span class="hint-head"><strong>${describeAction(hint.action, state.game)}</strong>
      <button type="button" class="quiet hint-close" aria-label=${t("common.close")} title=${t("common.close")}
        onClick=${() => controller.dismissHint()}>×</button></span>
    ${why ? html`<span class="hint-reason">${why}</span>` : null}
    <span class="hint-buttons">
      ${actionCards(hint.action).length
        ? html`<button type="button" class="small" onClick=${() => hand.selectNames(actionCards(hint.action))}>${t("table.hint_show")}</button>`
        : null}
      <button type="button" class="small primary" onClick=${() => controller.act(hint.action)}>${t("table.hint_play")}</button>
    </span>
  </div>`;
}
