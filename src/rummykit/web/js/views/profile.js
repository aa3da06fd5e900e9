// A player's profile (#/player/ID): their rating in each pool with a small chart of its
// history (SVG, drawn here), and their recent games with links to the replays and to the
// other players' profiles (a rated private game shown without its table or players).
// Every fetched value is rendered as text, never as markup.

import { html, useEffect, useState } from "../html.js";
import { t, errorText, formatDate, formatDateTime } from "../i18n.js";
import { api } from "../api.js";
import { TopBar } from "./common.js";
import { PastResult } from "./past-game.js";
import { readCatalog } from "../catalog.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { ReportButton } from "./report.js";
import { changeText, leaderboardHref, profileHref, ratingText } from "./leaderboard.js";

/**
 * @import { HistoryPoint, PoolRating, Profile, RecentGame, Standing } from "../protocol-types"
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
  // the line stretches with the page's width; the last rating's dot is drawn over it
  // (not in the stretched drawing) so that it stays round
  return html`<figure class="rating-chart">
    <div class="rating-plot">
      <svg viewBox=${`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`} role="img" aria-label=${t("profile.chart")}
        preserveAspectRatio="none" data-points=${xy.length}>
        <title>${t("profile.chart")}</title>
        <polyline class="rating-line" fill="none" points=${xy.map(([x, y]) => `${x},${y}`).join(" ")} />
      </svg>
      <span class="rating-last" aria-hidden="true"
        style=${`left:${(100 * lastX) / CHART_WIDTH}%;top:${(100 * lastY) / CHART_HEIGHT}%`}></span>
    </div>
    <figcaption class="muted">${low === high ? String(low) : `${low} – ${high}`}</figcaption>
  </figure>`;
}

/**
 * The name of a pool: its game, the table size when the game has several, and whether
 * it rates turn-based games.
 * @param {{ pool: string, game: string, players: number }} pool
 * @returns {string}
 */
function poolName(pool) {
  const game = t(`game.${pool.game}`);
  // a game played at several table sizes names the size of each pool (Burraco's pool
  // for two is called "burraco", as it was before four came)
  const sizes = readCatalog(session.get().catalog).games.find((g) => g.name === pool.game)?.players.length ?? 1;
  const named = pool.pool.includes("/") || sizes > 1 ? `${game} · ${t("rating.players_at_table", { count: pool.players })}` : game;
  // games over days are rated in pools of their own (the live pool's name and "+days")
  return pool.pool.endsWith("+days") ? `${named} · ${t("rating.turn_based")}` : named;
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
  const when = game.finished_at ? formatDate(game.finished_at) : "";
  const rated = html`<span class=${game.rated ? "badge rated" : "badge casual"}>
      ${game.rated ? t("rating.rated") : t("rating.casual")}${game.change !== null && game.change !== undefined ? ` ${changeText(game.change)}` : ""}</span>
    ${game.left_early ? html`<span class="badge warn">${t("profile.left_early")}</span>` : null}
    ${game.substituted ? html`<span class="badge warn">${t("profile.substituted")}</span>` : null}
    ${game.ended_by ? html`<span class="badge warn" data-testid="ended-by">${t(`profile.ended_by.${game.ended_by}`)}</span>` : null}`;
  if (game.private || !game.table_id) {
    // a private table: only what its rating history shows (no players, scores or replay)
    return html`<li class="history-row recent-game private" data-private="true">
      <span class="result">${game.place ? t("profile.place", { place: game.place }) : ""}</span>
      <span class="past-game">${t(`game.${game.game}`)}</span>
      <span class="muted">${t("profile.private_game")}</span>
      ${rated}
      <span class="muted past-date" data-testid="past-date">${when}</span>
    </li>`;
  }
  const players = game.seats.map((seat, i) => ({
    seat: i,
    kind: /** @type {"human" | "bot"} */ (seat.bot ? "bot" : "human"),
    level: seat.level ?? null,
    name: seat.name,
  }));
  return html`<li class="history-row recent-game" data-table=${game.table_id}>
    <${PastResult} game=${game.game} players=${players} seat=${game.seat} winners=${game.winners} totals=${game.totals} place=${game.place}
      link=${(/** @type {number} */ i) => {
        const id = game.seats[i]?.player_id;
        return id ? profileHref(id) : null;
      }} />
    ${rated}
    <span class="muted past-date" data-testid="past-date">${when}</span>
    <a class="past-replay" href=${`#/replay/${encodeURIComponent(game.table_id)}`}>${t("lobby.replay")}</a>
  </li>`;
}

/**
 * What a player is told of the measures against them (only on their own profile), and
 * the way to the moderators' pages for a moderator.
 */
function OwnStanding() {
  const [standing, setStanding] = useState(/** @type {Standing | null} */ (null));
  useEffect(() => {
    api.standing().then(setStanding).catch(() => setStanding(null));
  }, []);
  if (!standing) return null;
  return html`<div class="own-standing" data-testid="own-standing">
    ${standing.marks.map((mark) => html`<p key=${mark} class="banner" role="status" data-testid="marked">${t(`profile.standing.${mark}`)}</p>`)}
    ${standing.muted_until ? html`<p class="banner" role="status" data-testid="muted">${t("profile.standing.muted", { time: formatDateTime(standing.muted_until) })}</p>` : null}
    ${standing.moderator ? html`<p><a class="button" href="#/mod" data-testid="moderation-link">${t("profile.moderation")}</a></p>` : null}
  </div>`;
}

/**
 * The profile page.
 * @param {{ playerId: string }} props
 */
export function ProfilePage({ playerId }) {
  const { me } = useStore(session);
  const own = me?.player_id === playerId;
  const [profile, setProfile] = useState(/** @type {Profile | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    let alive = true;
    setProfile(null);
    setError(null);
    api
      .player(playerId)
      .then((data) => alive && setProfile(data))
      .catch((err) => alive && setError(errorText(err)));
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
          ${own ? html`<${OwnStanding} />` : me ? html`<p><${ReportButton} playerId=${playerId} name=${profile.name} /></p>` : null}
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
              : html`<ul class="history-list">${profile.recent.map((g, i) => html`<${RecentRow} key=${g.table_id ?? `private-${i}`} game=${g} />`)}</ul>`}
          </section>`
        : null}
    </main>`;
}
