// The end of a game: who won, the totals, the last hand or round, the fair deal, and
// the way on (replay, play again, lobby).

import { html, useEffect, useState } from "../html.js";
import { formatList, t } from "../i18n.js";
import { api } from "../api.js";
import { go, tableHref } from "../router.js";
import { Dialog } from "./common.js";
import { FairDeal } from "./fair-deal.js";
import { ReviewPanel } from "./review.js";
import { ScrollX } from "./scroll-x.js";
import { changeText, ratingText } from "./leaderboard.js";
import { gameViews } from "../games.js";

/**
 * @import { GameOverMessage, RatingChange, Seat } from "../protocol-types"
 * @import { BoardState } from "./board-parts.js"
 */

/**
 * The result: who won, the totals, the last hand (round), the review, the fair deal, and
 * the way on. Closed, it leaves a button that opens it again.
 * @param {{ state: BoardState, nameOf: (seat: Seat) => string, tableId: string,
 *   token?: string | null }} props
 */
export function GameOverDialog({ state, nameOf, tableId, token = null }) {
  const [open, setOpen] = useState(true);
  const { view, seat, game } = state;
  const over = /** @type {Partial<GameOverMessage>} before it arrives, the view's result */ (state.gameOver || {});
  const winners = over.winners || view.winners;
  const totals = over.totals || view.totals;
  const won = seat !== null && winners.includes(seat);
  const draw = winners.length > 1;
  const LastHand = gameViews(game)?.LastHand;
  // "play again": a rematch at the same table (same seats, rules and clock), each
  // player in their old seat; the others are offered it and join with one click
  const again = async () => {
    try {
      const table = await api.rematch(tableId);
      go(tableHref(table.table_id, table.invite_token));
    } catch {
      go("/");
    }
  };
  const offer = state.rematch;
  const changes = useRatingChanges(tableId, token);
  if (!open) {
    return html`<button type="button" class="primary reopen-result" onClick=${() => setOpen(true)}>${t("result.show")}</button>`;
  }
  const named = { name: formatList(winners.map(nameOf)) };
  const several = winners.length > 1;
  const headline = seat === null
    ? t(several ? "result.winners" : "result.winner", named)
    : draw && won
      ? t("result.draw")
      : won
        ? t("result.you_won")
        : t(several ? "result.you_lost_to_several" : "result.you_lost", named);
  return html`<${Dialog} title=${t("result.title")} onClose=${() => setOpen(false)} className="game-over">
    <p class=${`headline ${won ? "won" : ""}`} data-testid="result-headline">${headline}</p>
    ${offer && seat !== null && offer.by !== seat
      ? html`<p class="rematch-offer" role="status" data-testid="rematch-offer">${t("result.rematch_offered", { name: nameOf(offer.by) })}</p>`
      : null}
    <${ScrollX} label=${t("table.tab.scores")}><table class="score-table final-totals">
      <thead><tr>${totals.map((_, p) => html`<th scope="col">${nameOf(p)}</th>`)}</tr></thead>
      <tbody><tr>${totals.map((s, p) => html`<td class=${winners.includes(p) ? "leader" : ""} data-testid="final-total"><strong>${s}</strong></td>`)}</tr>
        ${changes.length
          ? html`<tr class="rating-changes">${totals.map((_, p) => {
              const change = changes.find((c) => c.seat === p);
              return html`<td class="rating-change" data-testid="rating-change" title=${change?.provisional ? t("rating.provisional") : null}>${change
                ? html`<span class="label">${t("rating.rating")}</span> <span class="value">${ratingText(change)} (${changeText(change.change)})</span>`
                : null}</td>`;
            })}</tr>`
          : null}</tbody>
    </table><//>
    ${LastHand ? html`<${LastHand} state=${state} nameOf=${nameOf} />` : null}
    ${seat !== null ? html`<${ReviewPanel} tableId=${tableId} game=${game} />` : null}
    <${FairDeal} seed=${over.seed ?? null} nonce=${over.nonce ?? null}
      commitment=${over.commitment ?? state.commitment ?? null} tableId=${tableId} token=${token} />
    <div class="actions">
      <a class="button" href="#/">${t("nav.lobby")}</a>
      <a class="button" href=${`#/replay/${encodeURIComponent(tableId)}${token ? `?token=${encodeURIComponent(token)}` : ""}`} data-testid="open-replay">${t("result.replay")}</a>
      ${seat !== null ? html`<button type="button" class="primary" data-testid="play-again" onClick=${again}>${offer && offer.by !== seat ? t("result.join_rematch") : t("result.again")}</button>` : null}
    </div>
  <//>`;
}

/**
 * What a rated game did to its players' ratings, by seat, read once from the table's
 * summary (empty for a casual game, or until it is read).
 * @param {string} tableId
 * @param {string | null} token
 * @returns {RatingChange[]}
 */
function useRatingChanges(tableId, token) {
  const [changes, setChanges] = useState(/** @type {RatingChange[]} */ ([]));
  useEffect(() => {
    let alive = true;
    api.table(tableId, token).then(
      (summary) => alive && setChanges(summary.rating_changes || []),
      () => {},
    );
    return () => {
      alive = false;
    };
  }, [tableId]);
  return changes;
}
