// The end of a Burraco hand: each side's melds as they lay when the hand ended (the
// hand's result carries them), with the burracos marked, beside the score breakdown.

import { html } from "../html.js";
import { t } from "../i18n.js";
import { burracoKind, wildStandsFor } from "../model.js";
import { MeldView } from "./meld-view.js";

/**
 * @import { BurracoHandResult, BurracoMeld, Seat } from "../protocol-types"
 * @import { BurracoMeldView } from "../model.js"
 */

/**
 * A meld of a hand's result as the boards draw a meld.
 * @param {BurracoMeld} meld
 * @param {number} index
 * @param {Seat} owner
 * @returns {BurracoMeldView}
 */
function meldView(meld, index, owner) {
  return { id: index, owner, kind: meld.kind, cards: meld.cards, wildIndex: meld.wild_index, suit: meld.suit, rank: meld.rank };
}

/**
 * Each side's final melds of one hand.
 * @param {{ result: BurracoHandResult, nameOf: (seat: Seat) => string }} props
 */
export function BurracoHandMelds({ result, nameOf }) {
  return html`<div class="hand-melds" data-testid="hand-melds">
    ${result.melds.map((side, seat) => html`<section class="hand-side" key=${seat} data-seat=${seat}
        aria-label=${t("burraco.melds_of", { name: nameOf(seat) })}>
      <h4 class="hand-side-title">${t("burraco.melds_of", { name: nameOf(seat) })}
        <span class="muted">${t("summary.meld_count", { count: side.length })}</span></h4>
      <div class="hand-side-melds">
        ${side.length
          ? side.map((meld, i) => {
              const view = meldView(meld, i, seat);
              const kind = burracoKind(view);
              return html`<${MeldView} key=${i} meld=${view} wildIndex=${view.wildIndex} standsFor=${wildStandsFor(view)}
                className=${kind ? `burraco ${kind} small-meld` : "small-meld"}
                badge=${kind ? html`<span class=${`burraco-badge ${kind}`}>${t(`burraco.${kind}`)}</span>` : null} />`;
            })
          : html`<span class="muted">${t("summary.no_melds")}</span>`}
      </div>
    </section>`)}
  </div>`;
}
