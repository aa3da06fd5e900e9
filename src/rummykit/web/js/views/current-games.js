// The lobby's list of the player's games not over: where to come back to after leaving a
// table (the computer plays a seat whose player is away until they return), and the
// rematches another player made, with a seat kept for this one.

import { html, useEffect, useState } from "../html.js";
import { formatList, t } from "../i18n.js";
import { api } from "../api.js";
import { tableHref } from "../router.js";
import { seatName } from "./common.js";

/**
 * @import { TableSummary } from "../protocol-types"
 * @import { Session } from "../store.js"
 */

const REFRESH_MS = 5000;

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
        return html`<li class="current-row" key=${table.table_id} data-table=${table.table_id} data-kept=${kept ? "true" : null}>
          <span class="current-game">${t(`game.${table.game}`)}</span>
          <span class="muted">${others.length ? t("lobby.against", { names: formatList(others) }) : ""}</span>
          <span class="chip">${t(status)}</span>
          <a class="button primary" href=${tableHref(table.table_id, null)}>${t(kept ? "result.join_rematch" : "lobby.return")}</a>
        </li>`;
      })}
    </ul>
  </section>`;
}
