// Before a table starts: the room its creator waits in (who is seated, the invitation link
// to copy) instead of a board no one may play yet; and the introduction an invitation's
// visitor reads (the game, the host, rated or casual, the clock, the rules) before they
// are asked whether to sit down or watch.

import { html } from "../html.js";
import { t } from "../i18n.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { inviteUrl } from "../router.js";
import { readCatalog } from "../catalog.js";
import { CopyButton, seatName } from "./common.js";
import { choiceLabel, optionLabel } from "./create-table.js";
import { gameViews } from "../games.js";

/**
 * @import { TableSummary } from "../protocol-types"
 * @import { TableState } from "../table-controller.js"
 * @import { InputChange } from "./common.js"
 */

/**
 * The table's rule options as label and value, in the player's language.
 * @param {string} game
 * @param {Record<string, unknown>} rules
 * @returns {[string, string][]}
 */
function ruleLines(game, rules) {
  const info = readCatalog(session.get().catalog).games.find((g) => g.name === game);
  const names = info ? info.options.map((o) => o.name) : Object.keys(rules);
  return names
    .filter((name) => name in rules)
    .map((name) => {
      const value = rules[name];
      const shown = typeof value === "boolean" ? t(value ? "common.yes" : "common.no") : choiceLabel(game, name, value);
      return [optionLabel(game, name), shown];
    });
}

/**
 * The room a table waits in until every seat is taken: who sits where, and the link to
 * send to the others.
 * `rated`: whether the table is rated (null until its summary is read).
 * @param {{ state: TableState, tableId: string, token: string | null, rated?: boolean | null }} props
 */
export function WaitingRoom({ state, tableId, token, rated = null }) {
  const link = inviteUrl(tableId, token);
  const open = state.players.filter((p) => p.kind === "human" && !p.name);
  // a watcher has no link to send: told only what the table waits for
  const seated = state.seat !== null && state.seat !== undefined;
  // at a table of partners (Burraco for four), the seat opposite one's own is the partner's
  const partnerOf = gameViews(state.game)?.partnerOf;
  const partner = partnerOf && state.seat !== null && state.seat !== undefined ? partnerOf(state.seat, state.players.length) : null;
  return html`<section class="waiting-room panel" role="status" data-testid="waiting-room">
    <h2>${t(seated ? "table.waiting" : "table.waiting_watched", { count: Math.max(1, open.length) })}</h2>
    ${rated === null ? null : html`<p class="waiting-kind"><${KindBadge} rated=${rated} /></p>`}
    <ul class="waiting-seats">
      ${state.players.map(
        (p) => html`<li key=${p.seat} class=${p.kind === "human" && !p.name ? "open" : "taken"} data-seat=${p.seat}>
          ${p.kept ? t("table.empty_seat_kept") : seatName(state.players, p.seat)}${p.seat === state.seat ? html` <span class="muted">(${t("table.you")})</span>` : null}${p.seat === partner
            ? html` <span class="chip partner-chip">${t("burraco.partner")}</span>`
            : null}</li>`,
      )}
    </ul>
    ${seated
      ? html`<p class="muted">${t("table.waiting_share")}</p>
          <div class="invite">
            <input readonly value=${link} aria-label=${t("table.invite_link")} data-testid="invite-link"
              onFocus=${(/** @type {InputChange} */ e) => e.target.select()} />
            <${CopyButton} text=${link} label=${t("table.copy_invite")} />
          </div>`
      : null}
  </section>`;
}

/**
 * Whether the table is rated, or a tournament's: a short badge (the waiting room, the
 * table's top bar).
 * @param {{ rated: boolean, tournament?: boolean }} props
 */
export function KindBadge({ rated, tournament = false }) {
  // a tournament's table is neither: its result counts in the tournament's standings
  const kind = tournament ? "tournament" : rated ? "rated" : "casual";
  return html`<span class=${`badge kind ${kind}`} data-testid="table-kind"
    data-rated=${String(rated)}>${t(`table.kind_${kind}`)}</span>`;
}

/**
 * The clock of a table in words: the turn time and the bank, or no time limit.
 * @param {Pick<TableSummary, "turn_seconds" | "time_bank_seconds" | "days_per_move">} table
 */
export function clockText(table) {
  if (table.days_per_move) return t("create.days_per_move", { days: table.days_per_move });
  if (!table.turn_seconds) return t("lobby.no_timer");
  const turn = t("lobby.turn_time_s", { seconds: table.turn_seconds });
  return table.time_bank_seconds ? `${turn} · ${t("lobby.bank_s", { seconds: table.time_bank_seconds })}` : turn;
}

/**
 * What a visitor who opens a table's link reads first: the game, who invites, the seats,
 * whether it is rated, its clock and its rules.
 * @param {{ summary: TableSummary }} props
 */
export function TableIntro({ summary }) {
  useStore(session); // the catalog may come later: the rules' labels follow it
  const host = summary.seats.find((s) => s.kind === "human" && s.name);
  const taken = summary.seats.filter((s) => s.taken).length;
  return html`<section class="panel table-intro" data-testid="table-intro">
    <h2>${t(`game.${summary.game}`)} <${KindBadge} rated=${Boolean(summary.rated)} tournament=${summary.tournament_id != null} /></h2>
    ${host ? html`<p class="intro-host">${t("invite.host", { name: host.name })}</p>` : null}
    <p class="muted intro-seats">${t("invite.seats", { taken, count: summary.seats.length })}</p>
    <p class="intro-kind" data-testid="intro-kind">${t(summary.rated ? "invite.rated" : "invite.casual")}</p>
    <p class="intro-clock" data-testid="intro-clock">${t("invite.clock", { clock: clockText(summary) })}</p>
    <dl class="intro-rules">
      ${ruleLines(summary.game, summary.rules).map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}
    </dl>
  </section>`;
}
