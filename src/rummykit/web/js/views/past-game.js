// A finished game as one of its players reads it in a list (the lobby's past games, a
// profile's recent games): won, lost or drawn, against whom, and the scores with the
// player's own first.

import { html } from "../html.js";
import { formatList, t } from "../i18n.js";
import { seatName } from "./common.js";
import { gameViews } from "../games.js";

/**
 * @import { SeatHolder } from "./common.js"
 */

/**
 * How the game went for `seat`: won (alone, or with its `partner`), drawn (another
 * side won too), or lost; null when the game has no result or the seat is not known.
 * @param {readonly number[] | null | undefined} winners
 * @param {number | null | undefined} seat
 * @param {number | null} [partner] the seat's partner at a table of pairs
 * @returns {"won" | "drawn" | "lost" | null}
 */
export function outcome(winners, seat, partner = null) {
  if (!winners || !winners.length || seat === null || seat === undefined) return null;
  if (!winners.includes(seat)) return "lost";
  return winners.some((w) => w !== seat && w !== partner) ? "drawn" : "won";
}

/**
 * The final scores with `seat`'s own first, the others after it in seat order
 * ("280 : 590"); at a table of pairs, each side's once (partners share a total).
 * @param {readonly number[] | null | undefined} totals
 * @param {number | null | undefined} seat
 * @param {number | null} [partner]
 * @returns {string}
 */
export function scoresMineFirst(totals, seat, partner = null) {
  if (!totals || !totals.length) return "";
  if (seat === null || seat === undefined || seat < 0 || seat >= totals.length) return totals.join(" : ");
  const others = totals.filter((_, i) => i !== seat && i !== partner);
  return [totals[seat], ...(partner === null ? others : others.slice(0, 1))].join(" : ");
}

/**
 * The result, the game, the opponents and the scores of a finished game, for its player
 * in `seat`: told to that player ("You won") when `own`, else of them ("Won", on a
 * profile others read).
 * @param {{ game: string, own?: boolean, players: SeatHolder[], seat: number | null | undefined,
 *   winners: readonly number[] | null | undefined, totals: readonly number[] | null | undefined,
 *   place?: number | null, link?: (seat: number) => string | null }} props
 */
export function PastResult({ game, own = false, players, seat, winners, totals, place = null, link = () => null }) {
  const partner = seat === null || seat === undefined ? null : gameViews(game)?.partnerOf(seat, players.length) ?? null;
  const how = outcome(winners, seat, partner);
  const others = players.filter((p) => p.seat !== seat && p.seat !== partner);
  const names = others.map((p) => {
    const name = seatName(players, p.seat);
    const href = link(p.seat);
    return href ? html`<a href=${href}>${name}</a>` : html`<span>${name}</span>`;
  });
  // the names joined as the language joins a list and set in the language's phrase,
  // each name still its own element (a link to a profile)
  const phrase = t(others.length > 1 ? "past.against_many" : "past.against_one", { names: formatList(others.map((_, i) => `\u0000${i}\u0000`)) });
  const pieces = phrase.split(/\u0000(\d+)\u0000/).map((text, i) => (i % 2 ? names[Number(text)] : text));
  return html`<span class=${`result ${how ?? ""}`} data-testid="past-result" data-outcome=${how}>
      ${place ? t("profile.place", { place }) : how ? t(own || how === "drawn" ? `past.${how}` : `result.${how}`) : ""}</span>
    <span class="past-game">${t(`game.${game}`)}</span>
    ${partner !== null
      ? html`<span class="past-partner" data-testid="past-partner">${t("lobby.partner_of", { name: seatName(players, partner) })}</span>`
      : null}
    ${others.length
      ? html`<span class="past-opponents" data-testid="past-opponents">${pieces}</span>`
      : null}
    ${totals && totals.length
      ? html`<span class="past-scores muted" data-testid="past-scores" title=${own ? t("past.scores_help") : null}>${scoresMineFirst(totals, seat, partner)}</span>`
      : null}`;
}
