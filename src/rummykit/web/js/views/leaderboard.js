// A game's leaderboard (#/leaderboard/GAME?period=30d): one board per pool, that is per
// table size (Burraco for two and for four, Three-Thirteen for two, three and four), all
// time or the last 30 days. Names link to
// the players' profiles. Every fetched value is rendered as text, never as markup.

import { html, useEffect, useState } from "../html.js";
import { t, errorText } from "../i18n.js";
import { api } from "../api.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { readCatalog } from "../catalog.js";
import { TopBar } from "./common.js";

/**
 * @import { Leaderboard, LeaderEntry, PoolBoard } from "../protocol-types"
 */
/** @typedef {"all" | "30d"} Period */

const PERIODS = /** @type {const} */ (["all", "30d"]);

/**
 * The address of a player's profile.
 * @param {string} id
 * @returns {string}
 */
export function profileHref(id) {
  return `#/player/${encodeURIComponent(id)}`;
}

/**
 * The address of a game's leaderboard for a period.
 * @param {string} game
 * @param {Period} [period]
 * @returns {string}
 */
export function leaderboardHref(game, period = "all") {
  return `#/leaderboard/${encodeURIComponent(game)}${period === "all" ? "" : `?period=${period}`}`;
}

/**
 * A signed rating change ("+12", "−8").
 * @param {number} change
 * @returns {string}
 */
export function changeText(change) {
  const rounded = Math.round(change);
  return rounded > 0 ? `+${rounded}` : rounded < 0 ? `−${-rounded}` : "±0";
}

/**
 * A rating as a whole number, with a "?" while it is provisional.
 * @param {{ rating: number, provisional: boolean }} entry
 * @returns {string}
 */
export function ratingText(entry) {
  return `${Math.round(entry.rating)}${entry.provisional ? "?" : ""}`;
}

/** @param {{ entry: LeaderEntry }} props */
function Row({ entry }) {
  return html`<tr data-player=${entry.player_id}>
    <td class="rank">${entry.rank}</td>
    <td class="name"><a href=${profileHref(entry.player_id)}>${entry.name}</a></td>
    <td class="rating" title=${entry.provisional ? t("rating.provisional") : null}>${ratingText(entry)}</td>
    <td class="games">${entry.games}</td>
  </tr>`;
}

/** @param {{ board: PoolBoard, several: boolean }} props */
function Board({ board, several }) {
  return html`<section class="panel board" data-pool=${board.pool}>
    ${several
      ? html`<h2>${t("rating.players_at_table", { count: board.players })}${board.turn_based ? ` · ${t("rating.turn_based")}` : ""}</h2>`
      : null}
    ${board.entries.length === 0
      ? html`<p class="muted">${t("rating.empty")}</p>`
      : html`<table class="leaderboard-table">
          <thead><tr>
            <th scope="col">${t("rating.rank")}</th>
            <th scope="col">${t("rating.player")}</th>
            <th scope="col">${t("rating.rating")}</th>
            <th scope="col">${t("rating.games")}</th>
          </tr></thead>
          <tbody>${board.entries.map((entry) => html`<${Row} key=${entry.player_id} entry=${entry} />`)}</tbody>
        </table>`}
  </section>`;
}

/**
 * The leaderboard page (of the catalog's first game when none is named).
 * @param {{ game: string, period: Period }} props
 */
export function LeaderboardPage({ game: named, period }) {
  const { catalog } = useStore(session);
  const { games } = readCatalog(catalog);
  const game = named || games[0]?.name || "";
  const [board, setBoard] = useState(/** @type {Leaderboard | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    let alive = true;
    setBoard(null);
    setError(null);
    if (!game) return undefined;
    api
      .leaderboard(game, period)
      .then((data) => alive && setBoard(data))
      .catch((err) => alive && setError(errorText(err)));
    return () => {
      alive = false;
    };
  }, [game, period]);
  return html`<${TopBar} title=${t("rating.leaderboard")} />
    <main class="leaderboard-page">
      <nav class="leaderboard-choices" aria-label=${t("rating.leaderboard")}>
        <span class="choice-group">
          ${games.map(
            (g) => html`<a class=${g.name === game ? "chip active" : "chip"} aria-current=${g.name === game ? "page" : null}
              href=${leaderboardHref(g.name, period)}>${t(`game.${g.name}`)}</a>`,
          )}
        </span>
        <span class="choice-group">
          ${PERIODS.map(
            (p) => html`<a class=${p === period ? "chip active" : "chip"} aria-current=${p === period ? "page" : null}
              data-period=${p} href=${leaderboardHref(game, p)}>${t(`rating.period.${p}`)}</a>`,
          )}
        </span>
      </nav>
      <h1>${t(`game.${game}`)}</h1>
      ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
      ${board === null && !error ? html`<p class="muted">${t("common.loading")}</p>` : null}
      ${board
        ? board.boards.map((b) => html`<${Board} key=${b.pool} board=${b} several=${board.boards.length > 1} />`)
        : null}
    </main>`;
}
