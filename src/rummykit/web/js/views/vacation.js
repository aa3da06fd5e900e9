// A player's vacation from turn-based games (games over days): the days left of this
// year's allowance, until when they are away, and days taken in advance, during which
// the clocks of their turn-based games stand still.

import { html, useEffect, useState } from "../html.js";
import { errorText, formatDateTime, t } from "../i18n.js";
import { api } from "../api.js";

/**
 * @import { VacationStatus } from "../protocol-types"
 * @import { SelectChange } from "./common.js"
 */

// the longest vacation the form offers at once (the server takes up to the days left)
const MOST_AT_ONCE = 14;

/** The vacation line of the lobby's current games, with its form. */
export function VacationPanel() {
  const [status, setStatus] = useState(/** @type {VacationStatus | null} */ (null));
  const [days, setDays] = useState(1);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api
      .vacation()
      .then(setStatus)
      .catch(() => undefined);
  }, []);
  if (!status) return null;
  const choices = Array.from({ length: Math.min(MOST_AT_ONCE, status.days_left) }, (_, i) => i + 1);
  const take = async (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setStatus(await api.takeVacation({ days }));
    } catch (err) {
      setError(errorText(err));
    }
    setBusy(false);
  };
  return html`<form class="vacation" data-testid="vacation" onSubmit=${take}>
    <span class="muted">${status.away_until
      ? t("turns.you_are_away", { date: formatDateTime(status.away_until) })
      : t("turns.vacation_left", { days: status.days_left })}</span>
    ${choices.length && !status.away_until
      ? html`<label class="option"><span class="visually-hidden">${t("turns.vacation_days")}</span>
          <select name="vacation_days" value=${String(days)} onChange=${(/** @type {SelectChange} */ e) => setDays(Number(e.target.value))}>
            ${choices.map((d) => html`<option value=${String(d)}>${t("turns.vacation_option", { days: d })}</option>`)}
          </select></label>
          <button type="submit" class="small" disabled=${busy}>${t("turns.take_vacation")}</button>`
      : null}
    ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
  </form>`;
}
