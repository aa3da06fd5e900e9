// A player's profile (#/player/ID): their rating in each pool with a small chart of its
// history (SVG, drawn here), and their recent public games with links to the replays and
// to the other players' profiles. Every fetched value is rendered as text, never as markup.

import { html, useEffect, useState } from "../html.js";
import { t, errorText } from "../i18n.js";
import { api } from "../api.js";
import { TopBar } from "./common.js";
import { changeText, leaderboardHref, profileHref, ratingText } from "./leaderboard.js";

/**
 * @import { HistoryPoint, PoolRating, Profile, RecentGame } from "../protocol-types"
 */

const CHART_WIDTH = 300;
const CHART_HEIGHT = 80;
const CHART_MARGIN = 6;

/**
 * The chart's points for ratings in order: x evenly spaced, y from the lowest rating
 * (bottom) to the highest (top); a flat line sits in the middle.
 * @param {number[]} ratings
 * @returns {[number, number][]}
 */
export function chartPoints(ratings) {
  if (ratings.length === 0) return [];
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const inner = CHART_HEIGHT - 2 * CHART_MARGIN;
  const step = ratings.length > 1 ? (CHART_WIDTH - 2 * CHART_MARGIN) / (ratings.length - 1) : 0;
  return ratings.map((rating, i) => {
    const y = high === low ? CHART_HEIGHT / 2 : CHART_MARGIN + ((high - rating) / (high - low)) * inner;
    const x = ratings.length > 1 ? CHART_MARGIN + i * step : CHART_WIDTH / 2;
    return [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
  });
}

/** @param {{ points: HistoryPoint[] }} props */
function RatingChart({ points }) {
  const ratings = points.map((p) => p.rating);
  const xy = chartPoints(ratings);
  if (xy.length === 0) return null;
  const [lastX, lastY] = xy[xy.length - 1];
  const low = Math.round(Math.min(...ratings));
  const high = Math.round(Math.max(...ratings));
  return html`<figure class="rating-chart">
    <svg viewBox=${`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`} role="img" aria-label=${t("profile.chart")}
      preserveAspectRatio="none" data-points=${xy.length}>
      <title>${t("profile.chart")}</title>
      <polyline class="rating-line" fill="none" points=${xy.map(([x, y]) => `${x},${y}`).join(" ")} />
      <circle class="rating-last" cx=${lastX} cy=${lastY} r="3" />
    </svg>
    <figcaption class="muted">${low === high ? String(low) : `${low} – ${high}`}</figcaption>
  </figure>`;
}

/**
 * The name of a pool: its game, and the table size when the game has several.
 * @param {{ pool: string, game: string, players: number }} pool
 * @returns {string}
 */
function poolName(pool) {
  const game = t(`game.${pool.game}`);
  return pool.pool.includes("/") ? `${game} · ${t("rating.players_at_table", { count: pool.players })}` : game;
}

/** @param {{ rating: PoolRating, history: HistoryPoint[] }} props */
function PoolCard({ rating, history }) {
  return html`<article class="pool-card" data-pool=${rating.pool}>
    <h3><a href=${leaderboardHref(rating.game)}>${poolName(rating)}</a></h3>
    <p class="pool-rating">
      <strong class="rating" title=${rating.provisional ? t("rating.provisional") : null}>${ratingText(rating)}</strong>
      <span class="muted"> · ${t("rating.games")}: ${rating.games}</span>
    </p>
    <${RatingChart} points=${history.filter((p) => p.pool === rating.pool)} />
  </article>`;
}

/** @param {{ game: RecentGame }} props */
function RecentRow({ game }) {
  const won = (game.winners || []).includes(game.seat);
  const when = game.finished_at ? new Date(game.finished_at * 1000).toLocaleDateString() : "";
  return html`<li class="history-row recent-game" data-table=${game.table_id}>
    <span class=${won ? "result won" : "result"}>
      ${game.place ? t("profile.place", { place: game.place }) : won ? t("result.won") : t("result.lost")}</span>
    <span>${t(`game.${game.game}`)}</span>
    <span class="recent-seats">
      ${game.seats.map((seat, i) => html`${i > 0 ? ", " : ""}${seat.player_id
        ? html`<a href=${profileHref(seat.player_id)}>${seat.name}</a>`
        : html`<span>${seat.name}</span>`}`)}
    </span>
    <span class="muted">${(game.totals || []).join(" : ")}</span>
    <span class=${game.rated ? "badge rated" : "badge casual"}>
      ${game.rated ? t("rating.rated") : t("rating.casual")}${game.change !== null && game.change !== undefined ? ` ${changeText(game.change)}` : ""}</span>
    ${game.left_early ? html`<span class="badge warn">${t("profile.left_early")}</span>` : null}
    ${game.substituted ? html`<span class="badge warn">${t("profile.substituted")}</span>` : null}
    <span class="muted">${when}</span>
    <a href=${`#/replay/${encodeURIComponent(game.table_id)}`}>${t("lobby.replay")}</a>
  </li>`;
}

/**
 * The profile page.
 * @param {{ playerId: string }} props
 */
export function ProfilePage({ playerId }) {
  const [profile, setProfile] = useState(/** @type {Profile | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    let alive = true;
    setProfile(null);
    setError(null);
    api
      .player(playerId)
      .then((data) => alive && setProfile(data))
      .catch((err) => alive && setError(errorText(err.code, err.params, err.message)));
    return () => {
      alive = false;
    };
  }, [playerId]);
  return html`<${TopBar} title=${profile ? profile.name : null} />
    <main class="profile-page">
      ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
      ${profile === null && !error ? html`<p class="muted">${t("common.loading")}</p>` : null}
      ${profile
        ? html`<h1 data-testid="profile-name">${profile.name}
            ${profile.registered ? null : html`<span class="muted"> (${t("profile.guest")})</span>`}</h1>
          <section class="panel" aria-labelledby="profile-ratings">
            <h2 id="profile-ratings">${t("profile.ratings")}</h2>
            ${profile.ratings.length === 0
              ? html`<p class="muted">${t("profile.no_ratings")}</p>`
              : html`<div class="pool-cards">
                  ${profile.ratings.map((r) => html`<${PoolCard} key=${r.pool} rating=${r} history=${profile.history} />`)}
                </div>`}
          </section>
          <section class="panel" aria-labelledby="profile-recent">
            <h2 id="profile-recent">${t("profile.recent")}</h2>
            ${profile.recent.length === 0
              ? html`<p class="muted">${t("profile.no_games")}</p>`
              : html`<ul class="history-list">${profile.recent.map((g) => html`<${RecentRow} key=${g.table_id} game=${g} />`)}</ul>`}
          </section>`
        : null}
    </main>`;
}
