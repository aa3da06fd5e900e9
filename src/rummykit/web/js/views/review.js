// The review of a finished game (POST/GET /api/tables/{id}/review): for each of the
// player's decisions, the strongest bot's move and what it was worth in its simulations,
// worked out in the background while a progress bar fills.

import { html, useEffect, useState } from "../html.js";
import { formatNumber, t, errorText } from "../i18n.js";
import { api } from "../api.js";
import { describeAction, reasonText } from "./board-parts.js";
import { gameViews } from "../games.js";

/** @import { Review } from "../protocol-types" */

const POLL_MS = 1000;

/** @param {number} points */
function signedPoints(points) {
  const rounded = Math.round(points * 10) / 10;
  return `${rounded > 0 ? "+" : ""}${formatNumber(rounded)}`;
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
        if (alive) setError(errorText(err.code, err.params, err.message));
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
  const better = items.filter((item) => item.suggested && item.value > 0);
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
              ? t("review.done", { count: better.length, total })
              : review.status === "failed"
                ? t("review.failed")
                : t("review.progress", { done, total })}</p>
          <ol class="review-items">
            ${better.map(
              (item) => html`<li key=${item.decision} data-state-number=${item.state_number}>
                <span class="review-move">${t("review.item", {
                  n: item.decision + 1,
                  played: describeAction(item.played, game),
                  suggested: describeAction(item.suggested, game),
                })}</span>
                <strong class="review-points">${t(gameViews(game)?.reviewPoints ?? "review.points", { points: signedPoints(item.points) })}</strong>
                ${item.reason ? html`<span class="muted review-reason">${reasonText(item.reason_phrases, item.reason, { named: true, game })}</span>` : null}
              </li>`,
            )}
          </ol>`
      : html`<p class="muted">${t("common.loading")}</p>`}
  </section>`;
}
