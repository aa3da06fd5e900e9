// A nickname asked in place, where the player clicked to play: a guest name is offered,
// so one more click sits them down and the game starts.

import { html, useEffect, useRef, useState } from "../html.js";
import { t, errorText } from "../i18n.js";
import { guestName, sitAsGuest } from "../guest.js";

/**
 * @import { InputChange } from "./common.js"
 */

/**
 * @param {{ onSeated: () => void, onCancel: () => void }} props
 */
export function QuickSeat({ onSeated, onCancel }) {
  const [name, setName] = useState(guestName);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  const field = useRef(/** @type {HTMLInputElement | null} */ (null));
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  const submit = async (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await sitAsGuest(name.trim());
      onSeated();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return html`<form class="quick-seat" data-testid="quick-seat" onSubmit=${submit}>
    <label class="field"><span>${t("onboard.name_first")}</span>
      <input ref=${field} name="quick-nickname" required maxlength="24" value=${name}
        onInput=${(/** @type {InputChange} */ e) => setName(e.target.value)} /></label>
    ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
    <div class="quick-actions">
      <button type="button" class="quiet" onClick=${onCancel}>${t("common.cancel")}</button>
      <button type="submit" class="primary" disabled=${busy || !name.trim()}>▶ ${t("onboard.play")}</button>
    </div>
  </form>`;
}
