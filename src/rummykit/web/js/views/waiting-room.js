// Before a table starts: the room its creator waits in (who is seated, the invitation link
// to copy) instead of a board no one may play yet; and the introduction an invitation's
// visitor reads (the game, the host, the rules) before picking a nickname.

import { html, useEffect, useState } from "../html.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { inviteUrl } from "../router.js";
import { readCatalog } from "../catalog.js";
import { CopyButton, seatName } from "./common.js";
import { choiceLabel, optionLabel } from "./create-table.js";

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
 * @param {{ state: TableState, tableId: string, token: string | null }} props
 */
export function WaitingRoom({ state, tableId, token }) {
  const link = inviteUrl(tableId, token, state.inviteUrl);
  const open = state.players.filter((p) => p.kind === "human" && !p.name);
  return html`<section class="waiting-room panel" role="status" data-testid="waiting-room">
    <h2>${t("table.waiting", { count: Math.max(1, open.length) })}</h2>
    <ul class="waiting-seats">
      ${state.players.map(
        (p) => html`<li key=${p.seat} class=${p.kind === "human" && !p.name ? "open" : "taken"} data-seat=${p.seat}>
          ${p.kept ? t("table.empty_seat_kept") : seatName(state.players, p.seat)}${p.seat === state.seat ? html` <span class="muted">(${t("table.you")})</span>` : null}</li>`,
      )}
    </ul>
    ${state.seat !== null && state.seat !== undefined
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
 * What an invitation's visitor reads first: the game, who invites, the rules and the
 * seats. `onSummary` hears the table's summary (null when it cannot be read).
 * @param {{ tableId: string, token: string | null, onSummary?: (summary: TableSummary | null) => void }} props
 */
export function TableIntro({ tableId, token, onSummary }) {
  useStore(session); // the catalog may come later: the rules' labels follow it
  const [summary, setSummary] = useState(/** @type {TableSummary | null} */ (null));
  useEffect(() => {
    let alive = true;
    api
      .table(tableId, token)
      .then((found) => {
        if (!alive) return;
        setSummary(found);
        onSummary?.(found);
      })
      .catch(() => alive && onSummary?.(null));
    return () => {
      alive = false;
    };
  }, [tableId, token]);
  if (!summary) return null;
  const host = summary.seats.find((s) => s.kind === "human" && s.name);
  const taken = summary.seats.filter((s) => s.taken).length;
  return html`<section class="panel table-intro" data-testid="table-intro">
    <h2>${t(`game.${summary.game}`)}</h2>
    ${host ? html`<p class="intro-host">${t("invite.host", { name: host.name })}</p>` : null}
    <p class="muted">${t("invite.seats", { taken, count: summary.seats.length })}
      ${summary.turn_seconds ? ` · ${t("lobby.turn_time_s", { seconds: summary.turn_seconds })}` : ""}</p>
    <dl class="intro-rules">
      ${ruleLines(summary.game, summary.rules).map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}
    </dl>
  </section>`;
}
