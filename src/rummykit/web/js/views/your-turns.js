// The turn-based games (games over days) where it is the player's turn: their count in
// the top bar and the tab's title, and one tap to the next of them (the one with the
// least time left, other than the table on screen).

import { html, useEffect } from "../html.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { Store, session } from "../store.js";
import { useStore } from "../hooks.js";
import { tableHref, useRoute } from "../router.js";
import { setTurnCount } from "../tab-badge.js";

/**
 * @import { TableSummary } from "../protocol-types"
 */

const REFRESH_MS = 15_000;

/** The ids of the games where it is the player's turn, least time left first. */
export const yourTurns = new Store(/** @type {{ tables: string[] }} */ ({ tables: [] }));

/**
 * The tables of a list of current games where it is the player's turn, in its order
 * (the server's: least time left first).
 * @param {TableSummary[]} current
 * @returns {string[]}
 */
export function turnTables(current) {
  return current.filter((table) => table.your_turn).map((table) => table.table_id);
}

/** Ask the server again which games wait for the player. */
export function refreshTurns() {
  return api
    .current()
    .then((/** @type {TableSummary[]} */ found) => {
      const tables = turnTables(found);
      yourTurns.set({ tables });
      setTurnCount(tables.length);
    })
    .catch(() => undefined);
}

/**
 * "Your turn: 3" in the top bar, a link to the next game that waits for the player
 * (nothing when no game does but the one on screen).
 */
export function YourTurns() {
  const route = useRoute();
  const current = route.name === "table" ? (route.args[0] ?? null) : null;
  const { me } = useStore(session);
  const { tables } = useStore(yourTurns);
  useEffect(() => {
    if (!me) return undefined;
    refreshTurns();
    const id = setInterval(refreshTurns, REFRESH_MS);
    return () => clearInterval(id);
  }, [me, current]);
  const next = tables.find((id) => id !== current);
  // at the one table that waits, the table itself says so (the tab's title counts it)
  if (!me || !next) return null;
  const label = t("turns.your_turn_count", { count: tables.length });
  // a phone shows the count alone on the site's icon (the words stay for screen readers)
  const shown = html`<span class="your-turns-words">${label}</span><span class="your-turns-count" aria-hidden="true">${tables.length}</span>`;
  return html`<a class="button primary small your-turns" data-testid="your-turns" href=${tableHref(next, null)}
        title=${t("turns.next_game")} aria-label=${`${label}. ${t("turns.next_game")}`}>${shown}</a>`;
}
