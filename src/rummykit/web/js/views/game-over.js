// The end of a game: who won, the totals, the last hand or round, the fair deal, and
// the way on (replay, play again, lobby or the tournament of a tournament's table).

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
import { tournamentHref } from "./tournaments.js";
import { outcome } from "./past-game.js";
import { ReportButton } from "./report.js";

/**
 * @import { GameOverMessage, Seat, TableSummary } from "../protocol-types"
 * @import { BoardState } from "../table-controller.js"
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
  const views = gameViews(game);
  // a column a side: a player, or partners (who share their total) at a table of pairs
  const partnerOf = views?.partnerOf ?? (() => null);
  /** @type {Seat[][]} */
  const sides = [];
  totals.forEach((_, p) => {
    const partner = partnerOf(p, totals.length);
    if (partner === null) sides.push([p]);
    else if (p < partner) sides.push([p, partner]);
  });
  // partners win together: a draw is another side's win too
  const how = seat === null ? null : outcome(winners, seat, partnerOf(seat, totals.length));
  const won = how === "won" || how === "drawn";
  const LastHand = views?.LastHand;
  // "play again": a rematch at the same table (same seats, rules and clock), each
  // player in their old seat; the others are offered it and join with one click.
  // A tournament's table has none (the tournament deals its next round): the button
  // waits for the summary that says whether the table is one
  const again = async () => {
    try {
      const table = await api.rematch(tableId);
      go(tableHref(table.table_id, table.invite_token));
    } catch {
      go("/");
    }
  };
  const offer = state.rematch;
  const summary = useSummary(tableId, token);
  const changes = summary?.rating_changes || [];
  const tournament = summary?.tournament_id ?? null;
  if (!open) {
    return html`<button type="button" class="primary reopen-result" onClick=${() => setOpen(true)}>${t("result.show")}</button>`;
  }
  // partners by their pair's name, as the table's team lines and the tournament's
  // standings join them ("Ann & Computer 3 (Medium)")
  const sideName = (/** @type {Seat[]} */ side) =>
    side.length > 1 ? t("table.pair_name", { name: nameOf(side[0]), partner: nameOf(side[1]) }) : nameOf(side[0]);
  const winning = sides.filter((side) => side.some((p) => winners.includes(p)));
  const named = { name: formatList(winning.map(sideName)) };
  const several = winners.length > 1;
  const headline = seat === null
    ? t(several ? "result.winners" : "result.winner", named)
    : how === "drawn"
      ? t("result.draw")
      : won
        ? t("result.you_won")
        : t(several ? "result.you_lost_to_several" : "result.you_lost", named);
  return html`<${Dialog} title=${t("result.title")} onClose=${() => setOpen(false)} className="game-over">
    <p class=${`headline ${won ? "won" : ""}`} data-testid="result-headline">${headline}</p>
    ${over.ended_by ? html`<p class="ended-by" data-testid="ended-by">${t(`result.ended_by.${over.ended_by}`)}</p>` : null}
    ${offer && seat !== null && offer.by !== seat
      ? html`<p class="rematch-offer" role="status" data-testid="rematch-offer">${t("result.rematch_offered", { name: nameOf(offer.by) })}</p>`
      : null}
    <${ScrollX} label=${t("table.tab.scores")}><table class="score-table final-totals">
      <thead><tr>${sides.map((side) => html`<th scope="col">${sideName(side)}</th>`)}</tr></thead>
      <tbody><tr>${sides.map(([first]) => html`<td class=${winners.includes(first) ? "leader" : ""} data-testid="final-total"><strong>${totals[first]}</strong></td>`)}</tr>
        ${changes.length
          ? html`<tr class="rating-changes">${sides.map((side) => html`<td>${side.map((p) => {
              const change = changes.find((c) => c.seat === p);
              return change
                ? html`<span class="rating-change" data-testid="rating-change" title=${change.provisional ? t("rating.provisional") : null}><span class="label">${side.length > 1 ? nameOf(p) : t("rating.rating")}</span> <span class="value">${ratingText(change)} (${changeText(change.change)})</span></span>`
                : null;
            })}</td>`)}</tr>`
          : null}</tbody>
    </table><//>
    ${LastHand ? html`<${LastHand} state=${state} nameOf=${nameOf} />` : null}
    ${seat !== null ? html`<${ReviewPanel} tableId=${tableId} game=${game} />` : null}
    <${FairDeal} seed=${over.seed ?? null} nonce=${over.nonce ?? null} heldForRound=${tournament !== null}
      commitment=${over.commitment ?? null} tableId=${tableId} token=${token} />
    ${seat !== null && summary
      ? html`<p class="report-players">${summary.seats
          .filter((s) => s.player_id && s.seat !== seat)
          .map((s) => html`<${ReportButton} key=${s.seat} playerId=${/** @type {string} */ (s.player_id)} name=${nameOf(s.seat)} tableId=${tableId} />`)}</p>`
      : null}
    <div class="actions">
      ${tournament
        ? html`<a class="button" href=${tournamentHref(tournament)} data-testid="back-to-tournament">${t("result.back_to_tournament")}</a>`
        : html`<a class="button" href="#/">${t("nav.lobby")}</a>`}
      <a class="button" href=${`#/replay/${encodeURIComponent(tableId)}${token ? `?token=${encodeURIComponent(token)}` : ""}`} data-testid="open-replay">${t("result.replay")}</a>
      ${seat !== null && summary && tournament === null ? html`<button type="button" class="primary" data-testid="play-again" onClick=${again}>${offer && offer.by !== seat ? t("result.join_rematch") : t("result.again")}</button>` : null}
    </div>
  <//>`;
}

/**
 * The table's summary, read once: what a rated game did to its players' ratings, by
 * seat (empty for a casual game), and the tournament it is a table of (null until read).
 * @param {string} tableId
 * @param {string | null} token
 * @returns {TableSummary | null}
 */
function useSummary(tableId, token) {
  const [summary, setSummary] = useState(/** @type {TableSummary | null} */ (null));
  useEffect(() => {
    let alive = true;
    api.table(tableId, token).then(
      (found) => alive && setSummary(found),
      () => {},
    );
    return () => {
      alive = false;
    };
  }, [tableId]);
  return summary;
}
