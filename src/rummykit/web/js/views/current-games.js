// The lobby's list of the player's games not over: where to come back to after leaving a
// table (the computer plays a seat whose player is away until they return), and the
// rematches another player made, with a seat kept for this one. Turn-based games (games
// over days) say whose turn it is and the time left; the server lists those where it is
// the player's turn first.

import { html, useEffect, useState } from "../html.js";
import { formatDateTime, formatList, t } from "../i18n.js";
import { api } from "../api.js";
import { tableHref } from "../router.js";
import { seatName } from "./common.js";
import { daysLeftText } from "./days-clock.js";
import { VacationPanel } from "./vacation.js";

/**
 * @import { TableSummary } from "../protocol-types"
 * @import { Session } from "../store.js"
 */

const REFRESH_MS = 5000;

/**
 * Whose turn it is at a turn-based game and its time left, in words.
 * @param {TableSummary} table
 * @returns {string}
 */
function turnText(table) {
  const seat = /** @type {number} */ (table.turn_seat);
  const whose = table.your_turn ? t("turns.your_turn") : t("turns.their_turn", { name: seatName(table.seats, seat) });
  const left = table.vacation_until
    ? t("turns.on_vacation", { date: formatDateTime(table.vacation_until) })
    : daysLeftText(/** @type {number} */ (table.turn_deadline) - Date.now() / 1000);
  return `${whose} · ${left}`;
}

/**
 * The player's running and waiting tables, each with a button back to it; nothing when
 * there are none.
 * @param {{ me: Session["me"] }} props
 */
export function CurrentGames({ me }) {
  const [tables, setTables] = useState(/** @type {TableSummary[]} */ ([]));
  useEffect(() => {
    if (!me) return undefined;
    let alive = true;
    // asked again every few seconds, like the open tables: a game ends, a rematch is
    // made, and one failed answer (a busy server) must not empty the list for good
    const load = () =>
      api
        .current()
        .then((found) => alive && setTables(found))
        .catch(() => undefined);
    load();
    const id = setInterval(load, REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(id);
    };
  }, [me]);
  if (!me || !tables.length) return null;
  const myName = me.name;
  return html`<section class="panel current-games" aria-labelledby="current-games-title" data-testid="current-games">
    <h2 id="current-games-title">${t("lobby.current_games")}</h2>
    <ul class="current-list">
      ${tables.map((table) => {
        // a computer by its level (never the server's name for it), a person by name
        const others = table.seats.flatMap((s) => (s.kind === "bot" || (s.name && s.name !== myName) ? [seatName(table.seats, s.seat)] : []));
        // a rematch another player made: a seat kept for me, not taken yet
        const kept = table.seats.some((s) => s.kept_for === me.player_id);
        const status = kept ? "lobby.status_rematch" : table.status === "waiting" ? "lobby.status_waiting" : "lobby.status_playing";
        return html`<li class=${`current-row${table.your_turn ? " your-turn" : ""}`} key=${table.table_id} data-table=${table.table_id}
            data-kept=${kept ? "true" : null} data-your-turn=${table.your_turn ? "true" : null}>
          <span class="current-game">${t(`game.${table.game}`)}${table.days_per_move
            ? html` <span class="muted small">· ${t("create.days_per_move", { days: table.days_per_move })}</span>`
            : null}</span>
          <span class="muted">${others.length ? t("lobby.against", { names: formatList(others) }) : ""}</span>
          ${table.turn_seat !== null && table.turn_seat !== undefined && table.turn_deadline
            ? html`<span class="chip days-left" data-testid="days-left">${turnText(table)}</span>`
            : html`<span class="chip">${t(status)}</span>`}
          <a class="button primary" href=${tableHref(table.table_id, null)}>${t(kept ? "result.join_rematch" : "lobby.return")}</a>
        </li>`;
      })}
    </ul>
    ${tables.some((table) => table.days_per_move) ? html`<${VacationPanel} />` : null}
  </section>`;
}
