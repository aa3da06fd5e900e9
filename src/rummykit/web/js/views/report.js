// Reporting a player to the moderators: why (cheating, abuse in chat, a name), in the
// reporter's words, from a profile or a game. Only moderators read reports.

import { html, useState } from "../html.js";
import { t, errorText } from "../i18n.js";
import { api } from "../api.js";
import { Dialog } from "./common.js";

/**
 * @import { InputChange } from "./common.js"
 */

const REASONS = /** @type {const} */ (["cheating", "abuse", "name"]);

/**
 * A button that opens the report form for ``playerId`` (named ``name``), from
 * ``tableId``'s game when given.
 * @param {{ playerId: string, name: string, tableId?: string | null }} props
 */
export function ReportButton({ playerId, name, tableId = null }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState(/** @type {typeof REASONS[number]} */ ("cheating"));
  const [text, setText] = useState("");
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const send = async (/** @type {Event} */ event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.report({ player_id: playerId, reason, text: text.trim(), table_id: tableId });
      setSent(true);
    } catch (/** @type {any} */ err) {
      setError(errorText(err));
    }
    setBusy(false);
  };
  if (!open) {
    return html`<button type="button" class="quiet small report-player" data-testid="report-player"
      onClick=${() => setOpen(true)}>${t("report.title", { name })}</button>`;
  }
  return html`<${Dialog} title=${t("report.title", { name })} onClose=${() => setOpen(false)} className="report-dialog">
    ${sent
      ? html`<p role="status" data-testid="report-sent">${t("report.sent")}</p>`
      : html`<form class="report-form" onSubmit=${send}>
          <fieldset>
            <legend>${t("report.why")}</legend>
            ${REASONS.map((r) => html`<label key=${r}><input type="radio" name="reason" value=${r} checked=${reason === r}
                onChange=${() => setReason(r)} /> ${t(`report.reason.${r}`)}</label>`)}
          </fieldset>
          <label>${t("report.text")}
            <textarea maxlength="500" rows="3" data-testid="report-text" value=${text}
              onInput=${(/** @type {InputChange} */ e) => setText(e.target.value)}></textarea></label>
          ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
          <div class="actions"><button type="submit" class="primary" disabled=${busy}>${t("report.send")}</button></div>
        </form>`}
  <//>`;
}
