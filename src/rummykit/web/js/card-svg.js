// Cards drawn as SVG: large corner index (readable when cards overlap), a centre pip or
// face frame, jokers in their own colours, a gold star on wild cards, and a back.

import { html } from "./html.js";
import { parseCard, rankText, SUIT_SYMBOL } from "./cards.js";
import { t } from "./i18n.js";


/**
 * @import { Card } from "./protocol-types"
 * @import { ParsedCard } from "./cards.js"
 */

/**
 * Accessible name of a card in the current language ("7 of hearts").
 * @param {Card} name
 * @returns {string}
 */
export function cardLabel(name) {
  const card = parseCard(name);
  if (card.joker) return t("card.joker");
  return t("card.name", { rank: t(`rank.${card.rank}`), suit: t(`suit.${card.suit}`) });
}

function WildBadge() {
  return html`<g class="wild-badge">
    <circle cx="84" cy="16" r="13" />
    <use href="#joker-star" x="74" y="6" width="20" height="20" />
  </g>`;
}

function JokerFace() {
  return html`
    <rect class="face joker-face" x="1.5" y="1.5" width="97" height="137" rx="9" />
    <text class="joker-letters" x="14" y="26">J</text>
    <text class="joker-letters" x="14" y="48">O</text>
    <text class="joker-letters" x="14" y="70">K</text>
    <text class="joker-letters" x="14" y="92">E</text>
    <text class="joker-letters" x="14" y="114">R</text>
    <use class="joker-star" href="#joker-star" x="32" y="44" width="62" height="62" />
    <circle class="joker-dot" cx="63" cy="118" r="6" />`;
}

/** @param {{ card: ParsedCard & { joker: false } }} props */
function SuitedFace({ card }) {
  const suit = card.suit;
  const index = rankText(card.rank);
  const face = card.rank >= 11 ? index : null;
  const narrow = index.length > 1;
  return html`
    <rect class="face" x="1.5" y="1.5" width="97" height="137" rx="9" />
    <text class="index" x=${narrow ? 4 : 7} y="33" textLength=${narrow ? 36 : null}
      lengthAdjust="spacingAndGlyphs">${index}</text>
    <use href=${`#suit-${suit}`} x="6" y="38" width="26" height="26" class="pip" />
    ${face
      ? html`<rect class="face-frame" x="36" y="44" width="56" height="84" rx="6" />
          <text class="face-letter" x="64" y="100">${face}</text>
          <use href=${`#suit-${suit}`} x="68" y="48" width="20" height="20" class="pip" />`
      : card.rank === 1
        ? html`<use href=${`#suit-${suit}`} x="36" y="56" width="58" height="58" class="pip" />`
        : html`<use href=${`#suit-${suit}`} x="40" y="60" width="50" height="50" class="pip" />`}
    <text class="index-small" x="92" y="132" text-anchor="end">${index}${SUIT_SYMBOL[suit]}</text>`;
}

/**
 * One card. `name` is the engine's card name; `back` draws the back instead. `wild`
 * adds the wild mark; `standsFor` (a card name) labels what a wild stands for in a meld.
 * @param {{ name?: Card | null, back?: boolean, wild?: boolean, standsFor?: Card | null }} props
 */
export function CardSvg({ name, back = false, wild = false, standsFor = null }) {
  if (back || !name) {
    return html`<svg class="card-svg back" viewBox="0 0 100 140" aria-hidden="true">
      <rect class="back-edge" x="1.5" y="1.5" width="97" height="137" rx="9" />
      <rect x="8" y="8" width="84" height="124" rx="5" fill="url(#card-back-pattern)" />
      <rect class="back-frame" x="8" y="8" width="84" height="124" rx="5" />
    </svg>`;
  }
  const card = parseCard(name);
  const suitClass = card.joker ? "joker" : `suit-${card.suit}`;
  return html`<svg class=${`card-svg ${suitClass}${wild ? " wild" : ""}`} viewBox="0 0 100 140"
      role="img" aria-label=${cardLabel(name) + (wild ? ` (${t("card.wild")})` : "")}>
    ${card.joker ? html`<${JokerFace} />` : html`<${SuitedFace} card=${card} />`}
    ${wild ? html`<${WildBadge} />` : null}
    ${standsFor
      ? html`<g class="stands-for"><rect x="2" y="68" width="40" height="24" rx="5" />
          <text x="22" y="86" text-anchor="middle">${shortName(standsFor)}</text></g>`
      : null}
  </svg>`;
}

/**
 * A card's index and suit symbol ("6♥"); never a joker (what a wild stands for).
 * @param {Card} name
 */
function shortName(name) {
  const card = parseCard(name);
  return rankText(card.rank) + SUIT_SYMBOL[/** @type {string} */ (card.suit)];
}
