// Leaving a table on purpose: a button that first says what happens (under way, the
// computer plays the seat until its player comes back from the lobby's current games;
// before the start, the seat is given up), then leaves and goes to the lobby.

import { html, useState } from "../html.js";
import { t, errorText } from "../i18n.js";
import { api } from "../api.js";
import { go } from "../router.js";
import { Dialog } from "./common.js";

/**
 * The leave button of a seated player, and its confirmation.
 * @param {{ tableId: string, status: "waiting" | "playing" | "over" | string, seated: boolean }} props
 */
export function LeaveTable({ tableId, status, seated }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  if (!seated || (status !== "playing" && status !== "waiting")) return null;
  const playing = status === "playing";
  const leave = async () => {
    try {
      await api.leave(tableId);
      go("#/");
    } catch (err) {
      setError(errorText(err));
    }
  };
  return html`<div class="leave-table">
    <button type="button" class="quiet" data-testid="leave-table" onClick=${() => setAsking(true)}>${t("leave.button")}</button>
    ${asking
      ? html`<${Dialog} title=${t("leave.title")} onClose=${() => setAsking(false)} className="leave-dialog">
          <p>${playing ? t("leave.playing") : t("leave.waiting")}</p>
          ${playing ? html`<p class="muted">${t("leave.return")}</p>` : null}
          ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
          <div class="actions">
            <button type="button" onClick=${() => setAsking(false)}>${t("leave.stay")}</button>
            <button type="button" class="primary" data-testid="leave-confirm" onClick=${leave}>${t("leave.confirm")}</button>
          </div>
        <//>`
      : null}
  </div>`;
}
