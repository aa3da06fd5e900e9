// The review of a finished game (POST/GET /api/tables/{id}/review): for each of the
// player's decisions, the strongest bot's move (the hint's there) and what it was worth
// in its simulations, with the 95% interval of that worth, worked out in the background
// while a progress bar fills. Only the decisions the server marks as mistakes (the
// interval above zero and the worth at least the game's threshold) are called mistakes;
// the other differences are listed apart as no clear difference.

import { html, useEffect, useState } from "../html.js";
import { formatNumber, t, errorText } from "../i18n.js";
import { api } from "../api.js";
import { describeAction, reasonText } from "../move-words.js";
import { gameViews } from "../games.js";

/** @import { Review, ReviewItem } from "../protocol-types" */

const POLL_MS = 1000;

/**
 * A figure to one decimal, a rounded zero as 0 (never -0: Intl writes the sign of -0).
 * @param {number} points
 */
function rounded(points) {
  return Math.round(points * 10) / 10 || 0;
}

/**
 * One reviewed decision where the bot would have played another move: the moves, the
 * worth of the bot's move in the game's points with its 95% interval, and the reason.
 * @param {{ item: ReviewItem, game: string | null }} props
 */
function ReviewLine({ item, game }) {
  const words = {
    n: item.decision + 1,
    played: describeAction(item.played, game),
    suggested: describeAction(item.suggested, game),
  };
  const low = item.points_low ?? null;
  const high = item.points_high ?? null;
  const verdict = item.mistake ? "mistake" : "unclear";
  // The worth is the bot's move's gain over the one played. Below zero (a decision of no
  // clear difference where the bot's move came out worse in its simulations) it is said
  // the other way round ("0.9 penalty points more"), beside its interval, under the badge
  // that says there is no clear difference.
  const points = rounded(item.points);
  const views = gameViews(game);
  const why = item.reason ? reasonText(item.reason_phrases, item.reason, { named: true, game }) : "";
  return html`<li class=${verdict} data-verdict=${verdict} data-state-number=${item.state_number}>
    <span class="review-move">${t(item.mistake ? "review.item" : "review.item_unclear", words)}</span>
    <span class="review-worth">
      <span class="review-badge">${t(item.mistake ? "review.mistake" : "review.unclear")}</span>
      <strong class="review-points" data-sign=${points < 0 ? "negative" : null}>${points < 0
        ? t(views?.reviewPointsWorse ?? "review.points_less", { points: formatNumber(-points) })
        : t(views?.reviewPoints ?? "review.points", { points: formatNumber(points) })}</strong>
      ${low !== null && high !== null
        ? html`<span class="review-interval" data-testid="review-interval">${t("review.interval", {
            margin: formatNumber(rounded((high - low) / 2)),
            low: formatNumber(rounded(low)),
            high: formatNumber(rounded(high)),
          })}</span>`
        : null}
    </span>
    ${why ? html`<span class="muted review-reason">${why}</span>` : null}
  </li>`;
}

/**
 * The review of the player's decisions in a finished game, started by a button.
 * @param {{ tableId: string, game: string | null }} props
 */
export function ReviewPanel({ tableId, game }) {
  const [review, setReview] = useState(/** @type {Review | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [started, setStarted] = useState(false);
  useEffect(() => {
    if (!started) return undefined;
    let alive = true;
    /** @type {number | null} */
    let timer = null;
    const poll = async (/** @type {boolean} */ first) => {
      try {
        const data = first ? await api.startReview(tableId) : await api.review(tableId);
        if (!alive) return;
        setReview(data);
        if (data.status === "running") timer = setTimeout(() => poll(false), POLL_MS);
      } catch (err) {
        if (alive) setError(errorText(err));
      }
    };
    poll(true);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [started]);
  if (!started) {
    return html`<section class="review" data-testid="review">
      <h3>${t("review.title")}</h3>
      <p class="muted">${t("review.explain")}</p>
      <button type="button" data-testid="start-review" onClick=${() => setStarted(true)}>${t("review.start")}</button>
    </section>`;
  }
  const items = review?.items || [];
  const mistakes = items.filter((item) => item.suggested && item.mistake);
  const unclear = items.filter((item) => item.suggested && !item.mistake);
  const total = review?.total || 0;
  const done = review?.done || 0;
  return html`<section class="review" data-testid="review">
    <h3>${t("review.title")}</h3>
    ${error ? html`<p class="error-text">${error}</p>` : null}
    ${review
      ? html`<div class="progress" role="progressbar" aria-valuemin="0" aria-valuemax=${total} aria-valuenow=${done}
            aria-label=${t("review.progress", { done, total })}>
            <span style=${`width:${total ? (100 * done) / total : 0}%`}></span>
          </div>
          <p class="muted" data-testid="review-status" data-status=${review.status}>
            ${review.status === "done"
              ? t("review.done", { count: mistakes.length, total })
              : review.status === "failed"
                ? t("review.failed")
                : t("review.progress", { done, total })}</p>
          <ol class="review-items" data-testid="review-mistakes">
            ${mistakes.map((item) => html`<${ReviewLine} key=${item.decision} item=${item} game=${game} />`)}
          </ol>
          ${unclear.length
            ? html`<details class="review-unclear" data-testid="review-unclear">
                <summary>${t("review.unclear_count", { count: unclear.length })}</summary>
                <ol class="review-items">
                  ${unclear.map((item) => html`<${ReviewLine} key=${item.decision} item=${item} game=${game} />`)}
                </ol>
              </details>`
            : null}`
      : html`<p class="muted">${t("common.loading")}</p>`}
  </section>`;
}
