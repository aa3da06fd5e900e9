// Three-Thirteen hands in groups: each meld on its own with what its wilds stand for, then
// the deadwood with its points. The live panel shows the player's own hand as the engine
// would score it now (the state message's `arrangement`, made by the server from the
// seat's own observation: the client solves nothing); the round summary shows every
// player's laid-down result the same way.

import { html, useState } from "../html.js";
import { formatList, t } from "../i18n.js";
import { CardSvg } from "../card-svg.js";
import { RANKS, cardText, cardsText, parseCard, rankText } from "../cards.js";

/**
 * @import { Card, HandArrangement } from "../protocol-types"
 */
/**
 * A meld to show: its cards and, when known, its kind and what each wild stands for
 * ("6h" in a run, "9" in a set).
 * @typedef {{ cards: Card[], kind?: "set" | "run", stands_for?: (string | null)[] }} GroupMeld
 */
/** @typedef {(name: Card) => boolean} IsWild */

/**
 * A meld's kind from its cards: a set when its naturals share one rank, else a run.
 * @param {Card[]} cards
 * @param {IsWild} isWild
 * @returns {"set" | "run"}
 */
export function meldKind(cards, isWild) {
  const ranks = new Set(cards.filter((c) => !isWild(c)).map((c) => parseCard(c).rank));
  return ranks.size <= 1 ? "set" : "run";
}

/**
 * What each card of a laid-out meld stands for when it is wild (a run lists its places
 * low to high with the wilds at theirs; a set takes its naturals' rank): "6h", "9", or
 * null for a natural card and for a meld of wilds alone.
 * @param {Card[]} cards
 * @param {IsWild} isWild
 * @returns {(string | null)[]}
 */
export function wildPlaces(cards, isWild) {
  const first = cards.findIndex((c) => !isWild(c));
  if (first < 0) return cards.map(() => null);
  const natural = parseCard(cards[first]);
  if (meldKind(cards, isWild) === "set") {
    return cards.map((c) => (isWild(c) ? RANKS[/** @type {number} */ (natural.rank) - 1] : null));
  }
  const low = /** @type {number} */ (natural.rank) - first;
  return cards.map((c, i) => (isWild(c) ? RANKS[(((low + i - 1) % 13) + 13) % 13] + natural.suit : null));
}

/**
 * A wild's place in words: "6♥" (a run's card) or "9" (a set's rank).
 * @param {string} place
 */
export function placeText(place) {
  return place.length === 1 ? rankText(RANKS.indexOf(place) + 1) : cardText(place);
}

/**
 * @param {{ name: Card, wild: boolean, place: string | null }} props
 */
function GroupCard({ name, wild, place }) {
  return html`<span class="group-card">
    <span class="card" data-card=${name}><${CardSvg} name=${name} wild=${wild} /></span>
    ${place
      ? html`<span class="stands-for-note" data-testid="stands-for" title=${t("arrangement.wild_as", { card: placeText(place) })}>= ${placeText(place)}</span>`
      : null}
  </span>`;
}

/**
 * Melds one by one, then the deadwood and its points.
 * @param {{ melds: GroupMeld[], unmelded: Card[], deadwood: number, isWild: IsWild,
 *   className?: string }} props
 */
export function CardGroups({ melds, unmelded, deadwood, isWild, className = "" }) {
  return html`<div class=${`card-groups ${className}`}>
    ${melds.map((meld, i) => {
      const kind = meld.kind ?? meldKind(meld.cards, isWild);
      const places = meld.stands_for ?? wildPlaces(meld.cards, isWild);
      return html`<div class="card-group meld-group" key=${i} role="group" data-kind=${kind} data-testid="meld-group"
          aria-label=${`${t(`meld.${kind}`)}: ${cardsText(meld.cards)}`}>
        <span class="group-label">${t(`meld.${kind}`)}</span>
        <span class="group-cards">${meld.cards.map((name, j) => html`<${GroupCard} key=${j} name=${name} wild=${isWild(name)} place=${places[j] ?? null} />`)}</span>
      </div>`;
    })}
    ${unmelded.length
      ? html`<div class="card-group deadwood-group" role="group" data-testid="deadwood-group"
          aria-label=${`${t("thirteen.deadwood")}: ${cardsText(unmelded)}`}>
          <span class="group-label">${t("thirteen.deadwood")} <strong data-testid="deadwood-points">${t("arrangement.points", { count: deadwood })}</strong></span>
          <span class="group-cards">${unmelded.map((name, j) => html`<${GroupCard} key=${j} name=${name} wild=${isWild(name)} place=${null} />`)}</span>
        </div>`
      : html`<div class="card-group deadwood-group none" data-testid="deadwood-group">
          <span class="group-label">${t("thirteen.deadwood")} <strong data-testid="deadwood-points">${t("arrangement.points", { count: 0 })}</strong></span>
        </div>`}
  </div>`;
}

/**
 * The player's own hand as the engine would score it now; in the discard phase, the
 * discard that leaves the least and what the selected card would leave.
 * @param {{ arrangement: HandArrangement, isWild: IsWild, selected: Card[] }} props
 */
export function ArrangementPanel({ arrangement, isWild, selected }) {
  const [open, setOpen] = useState(() => typeof window === "undefined" || window.innerWidth > 560);
  const { discards } = arrangement;
  const least = discards.length ? discards[0].deadwood : null;
  const best = discards.filter((d) => d.deadwood === least).map((d) => d.card);
  const chosen = selected.length === 1 ? discards.find((d) => d.card === selected[0]) : undefined;
  const summary = least === null
    ? t("arrangement.now", { count: arrangement.deadwood })
    : least === 0
      ? t("arrangement.discard_to_out", { cards: formatList(best.map(cardText), "disjunction") })
      : t("arrangement.best_discard", { cards: formatList(best.map(cardText), "disjunction"), count: least });
  return html`<section class=${`arrangement${open ? " open" : ""}`} data-testid="arrangement" aria-label=${t("arrangement.title")}>
    <div class="arrangement-head">
      <button type="button" class="quiet small arrangement-toggle" aria-expanded=${String(open)}
        title=${open ? t("arrangement.hide") : t("arrangement.show")} onClick=${() => setOpen(!open)}>
        ${open ? "▾" : "▸"} ${t("arrangement.title")}</button>
      <span class="arrangement-summary" data-testid="arrangement-summary" role="status">${summary}</span>
      ${chosen
        ? html`<span class="arrangement-choice" data-testid="arrangement-choice">${t("arrangement.if_discard", { card: cardText(chosen.card), count: chosen.deadwood })}</span>`
        : null}
    </div>
    ${open
      ? html`<${CardGroups} melds=${arrangement.melds} unmelded=${arrangement.unmelded} deadwood=${arrangement.deadwood}
          isWild=${isWild} className="live" />`
      : null}
  </section>`;
}
