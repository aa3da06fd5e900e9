// Small line icons drawn inline, so that no emoji font is needed.

import { html } from "./html.js";

/** @import { ComponentChildren } from "../vendor/preact.module.js" */
/** An icon's props: `label` names it for a screen reader (else it is hidden). @typedef {{ label?: string | null }} IconProps */

/** @type {(body: ComponentChildren, label?: string | null) => unknown} */
const icon = (body, label) => html`<svg class="icon" viewBox="0 0 24 24" width="1em" height="1em"
    aria-hidden=${label ? null : "true"} role=${label ? "img" : null} aria-label=${label || null}>${body}</svg>`;

/** @param {IconProps} [props] */
export const IconBot = ({ label } = {}) =>
  icon(html`<rect x="4" y="7" width="16" height="12" rx="3" fill="none" stroke="currentColor" stroke-width="2"/>
    <circle cx="9.5" cy="13" r="1.6" fill="currentColor"/><circle cx="14.5" cy="13" r="1.6" fill="currentColor"/>
    <path d="M12 3v4M2 12v3M22 12v3" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>`, label);

/** @param {IconProps} [props] */
export const IconCards = ({ label } = {}) =>
  icon(html`<rect x="3" y="5" width="11" height="15" rx="2" fill="none" stroke="currentColor" stroke-width="1.8" transform="rotate(-10 8 12)"/>
    <rect x="9" y="4" width="11" height="15" rx="2" fill="currentColor" opacity="0.85"/>`, label);

/** @param {IconProps} [props] */
export const IconBulb = ({ label } = {}) =>
  icon(html`<path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z"
    fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/>`, label);

/** @param {IconProps} [props] */
export const IconPerson = ({ label } = {}) =>
  icon(html`<circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" stroke-width="2"/>
    <path d="M4 21c1-4.5 4.5-6.5 8-6.5s7 2 8 6.5" fill="none" stroke="currentColor" stroke-width="2"/>`, label);
