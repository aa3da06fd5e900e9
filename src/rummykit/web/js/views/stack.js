// A face-down stack of cards on the table: the stock (a button to draw from it) and the
// other piles, with how many cards each holds.

import { html } from "../html.js";
import { CardSvg } from "../card-svg.js";

/**
 * A face-down stack: the stock (a button when `onClick` draws from it) or another pile.
 * @param {{ count: number, label: string, onClick?: (() => unknown) | null, enabled?: boolean,
 *   drop?: string | null, testId?: string | null, small?: boolean }} props
 */
export function Stack({ count, label, onClick, enabled = false, drop = null, testId = null, small = false }) {
  const shown = Math.min(3, Math.ceil(count / 15));
  const content = html`
    ${count > 0
      ? Array.from({ length: Math.max(1, shown) }, (_, i) => html`<span class="card stacked" style=${`--n:${i}`}><${CardSvg} back /></span>`)
      : html`<span class="card empty-slot"></span>`}
    <span class="stack-count">${count}</span>`;
  const classes = `stack${enabled ? " can-act" : ""}${small ? " small" : ""}`;
  return html`<div class="stack-wrap">
    ${onClick
      ? html`<button type="button" class=${classes} data-testid=${testId} disabled=${!enabled}
          aria-label=${`${label}: ${count}`} onClick=${onClick} data-drop=${drop}>${content}</button>`
      : html`<div class=${classes} data-testid=${testId} aria-label=${`${label}: ${count}`} role="img">${content}</div>`}
    <span class="stack-label">${label}</span>
  </div>`;
}
