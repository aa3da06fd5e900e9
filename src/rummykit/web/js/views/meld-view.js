// A meld laid on the table, its wild marked and what the wild stands for; a button where
// the selected cards may be added to it.

import { html } from "../html.js";
import { t } from "../i18n.js";
import { CardSvg } from "../card-svg.js";
import { cardsText } from "../cards.js";

/**
 * @import { Card } from "../protocol-types"
 * @import { MeldView as Meld } from "../model.js"
 */

/**
 * A meld laid on the table. `standsFor` names what its wild stands for.
 * @param {{ meld: Meld, wildIndex?: number | null, isWild?: ((name: Card) => boolean) | null,
 *   standsFor?: Card | null, drop?: string | null, highlight?: boolean,
 *   onClick?: (() => unknown) | null, badge?: unknown, className?: string }} props
 */
export function MeldView({ meld, wildIndex = null, isWild = null, standsFor = null, drop = null,
  highlight = false, onClick = null, badge = null, className = "" }) {
  const cards = meld.cards.map((name, i) => {
    const wild = wildIndex === i || (isWild ? isWild(name) : false);
    return html`<span class="card meld-card" data-card=${name} key=${i}>
      <${CardSvg} name=${name} wild=${wild} standsFor=${wildIndex === i ? standsFor : null} />
    </span>`;
  });
  const classes = `meld ${className}${highlight ? " accepts" : ""}`;
  const label = `${t(`meld.${meld.kind}`)}: ${cardsText(meld.cards)}`;
  return onClick
    ? html`<button type="button" class=${classes} data-meld=${meld.id} data-drop=${drop}
        aria-label=${label} onClick=${onClick}>${badge}<span class="meld-cards">${cards}</span></button>`
    : html`<div class=${classes} data-meld=${meld.id} data-drop=${drop} role="group" aria-label=${label}>
        ${badge}<span class="meld-cards">${cards}</span></div>`;
}
