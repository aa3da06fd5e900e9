// Notifications (#/notifications): for each kind (your turn, a game's end, an invitation,
// time running low, a tournament's round) the channels it comes by, among those the server
// offers (the page always; Web Push and e-mail when the host has them), the e-mail address
// and its confirmation, and this browser's push subscription. The pages a mail's links
// open are here too: #/verify-email?token=… and #/unsubscribe?token=…, which need no
// session. Every fetched value is rendered as text, never as markup.

import { html, useEffect, useState } from "../html.js";
import { t, errorText, language } from "../i18n.js";
import { api } from "../api.js";
import { TopBar } from "./common.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { PushProblem, currentEndpoint, pushSupported, subscribe, unsubscribe } from "../push.js";

/**
 * @import { NotificationSettings } from "../protocol-types"
 */

export const KINDS = ["your_turn", "game_ended", "invitation", "time_low", "tournament_round"];
/** @typedef {"page" | "push" | "email"} Channel */

/**
 * The choices with `channel` of `kind` turned on or off (the page is never stored:
 * an open page always shows what happens).
 * @param {Record<string, Channel[]>} channels
 * @param {string} kind
 * @param {Channel} channel
 * @param {boolean} on
 * @returns {Record<string, Channel[]>}
 */
export function toggled(channels, kind, channel, on) {
  const kept = (channels[kind] || []).filter((c) => c !== channel && c !== "page");
  return { ...channels, [kind]: on ? [...kept, channel] : kept };
}

/** @param {{ settings: NotificationSettings, onChange: (s: NotificationSettings) => void, onError: (e: any) => void }} props */
function ChannelGrid({ settings, onChange, onError }) {
  const offered = settings.offered;
  // one change at a time, each made on the choices the server answered last; the box
  // shows the change asked for while it is on its way
  const [draft, setDraft] = useState(/** @type {Record<string, Channel[]> | null} */ (null));
  const saving = draft !== null;
  const channels = draft || /** @type {Record<string, Channel[]>} */ (settings.channels || {});
  const change = async (/** @type {string} */ kind, /** @type {Channel} */ channel, /** @type {boolean} */ on) => {
    const wanted = toggled(channels, kind, channel, on);
    setDraft(wanted);
    try {
      onChange(await api.chooseNotifications({
        channels: wanted,
        language: /** @type {"en" | "hu" | "ru"} */ (language()),
        mail_more: Boolean(settings.mail_more),
      }));
    } catch (error) {
      onError(error);
    } finally {
      setDraft(null);
    }
  };
  return html`<table class="notify-grid" aria-busy=${saving ? "true" : "false"}>
    <thead><tr><th scope="col">${t("notify.kind")}</th>
      ${offered.map((c) => html`<th scope="col" data-channel=${c} title=${t(`notify.channel.${c}`)}>${t(`notify.column.${c}`)}</th>`)}</tr></thead>
    <tbody>${KINDS.map((kind) => html`<tr data-kind=${kind}>
      <th scope="row">${t(`notify.kind.${kind}`)}</th>
      ${offered.map((channel) => {
        const label = `${t(`notify.kind.${kind}`)}: ${t(`notify.channel.${channel}`)}`;
        return html`<td>${channel === "page"
          ? html`<input type="checkbox" checked disabled aria-label=${label} />`
          : html`<input type="checkbox" aria-label=${label} data-channel=${channel} disabled=${saving}
              checked=${(channels[kind] || []).includes(channel)}
              onChange=${(/** @type {Event} */ e) => change(kind, channel, /** @type {HTMLInputElement} */ (e.target).checked)} />`}</td>`;
      })}
    </tr>`)}</tbody>
  </table>`;
}

/** @param {{ settings: NotificationSettings, registered: boolean, onChange: (s: NotificationSettings) => void, onError: (e: any) => void }} props */
function EmailSection({ settings, registered, onChange, onError }) {
  const [address, setAddress] = useState(settings.email || "");
  const [sent, setSent] = useState(/** @type {string | null} */ (null));
  if (!registered) return html`<p class="muted" data-testid="email-guest">${t("notify.email.guests")}</p>`;
  const send = async (/** @type {Event} */ event) => {
    event.preventDefault();
    try {
      const answer = await api.notificationEmail(address.trim());
      onChange(answer);
      setSent(address.trim());
    } catch (error) {
      onError(error);
    }
  };
  const more = async (/** @type {boolean} */ on) => {
    try {
      onChange(await api.chooseNotifications({
        channels: /** @type {Record<string, Channel[]>} */ (settings.channels || {}),
        language: /** @type {"en" | "hu" | "ru"} */ (language()),
        mail_more: on,
      }));
    } catch (error) {
      onError(error);
    }
  };
  return html`<section class="notify-email">
    <h2>${t("notify.channel.email")}</h2>
    ${settings.email
      ? html`<p data-testid="email-state" class=${settings.email_verified ? "" : "muted"}>${t(
          settings.email_verified ? "notify.email.verified" : "notify.email.unverified",
          { email: settings.email },
        )}</p>`
      : null}
    <form onSubmit=${send} class="notify-email-form">
      <label>${t("notify.email.label")}
        <input type="email" name="email" required maxLength=${254} autocomplete="email" value=${address}
          onInput=${(/** @type {Event} */ e) => setAddress(/** @type {HTMLInputElement} */ (e.target).value)} /></label>
      <button type="submit">${t("notify.email.send")}</button>
    </form>
    ${sent ? html`<p role="status" data-testid="email-sent">${t("notify.email.sent", { email: sent })}</p>` : null}
    <label class="notify-more"><input type="checkbox" checked=${Boolean(settings.mail_more)}
      onChange=${(/** @type {Event} */ e) => more(/** @type {HTMLInputElement} */ (e.target).checked)} />
      ${t("notify.mail_more")}</label>
  </section>`;
}

/** @param {{ settings: NotificationSettings, onChange: (s: NotificationSettings) => void, onError: (e: any) => void }} props */
function PushSection({ settings, onChange, onError }) {
  const [endpoint, setEndpoint] = useState(/** @type {string | null} */ (null));
  const [problem, setProblem] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    currentEndpoint().then(setEndpoint, () => setEndpoint(null));
  }, []);
  if (!pushSupported()) return html`<section class="notify-push"><h2>${t("notify.channel.push")}</h2>
    <p class="muted">${t("notify.push.unsupported")}</p></section>`;
  const on = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const subscription = await subscribe(settings.push_key || "");
      onChange(await api.pushSubscribe(subscription));
      setEndpoint(subscription.endpoint);
    } catch (error) {
      if (error instanceof PushProblem) setProblem(error.code);
      else onError(error);
    } finally {
      setBusy(false);
    }
  };
  const off = async () => {
    setBusy(true);
    try {
      const gone = await unsubscribe();
      if (gone) onChange(await api.pushUnsubscribe(gone));
      setEndpoint(null);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  return html`<section class="notify-push">
    <h2>${t("notify.channel.push")}</h2>
    <p class="muted" data-testid="push-count">${t("notify.push.count", { count: settings.push_subscriptions })}</p>
    ${endpoint
      ? html`<p data-testid="push-on">${t("notify.push.on")}</p>
          <button type="button" disabled=${busy} onClick=${off}>${t("notify.push.unsubscribe")}</button>`
      : html`<button type="button" class="primary" data-testid="push-subscribe" disabled=${busy} onClick=${on}>
          ${t("notify.push.subscribe")}</button>`}
    ${problem ? html`<p class="error-text" role="alert" data-testid="push-problem" data-problem=${problem}>${t(`notify.push.${problem}`)}</p>` : null}
  </section>`;
}

export function NotificationsPage() {
  const { me } = useStore(session);
  const [settings, setSettings] = useState(/** @type {NotificationSettings | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    if (!me) return;
    api.notifications().then(setSettings, (e) => setError(errorText(e)));
  }, [me && me.player_id]);
  // what is sent comes in the language the player uses here
  const current = language();
  useEffect(() => {
    if (!settings || settings.language === current) return;
    api.chooseNotifications({
      channels: /** @type {Record<string, Channel[]>} */ (settings.channels || {}),
      language: /** @type {"en" | "hu" | "ru"} */ (current),
      mail_more: Boolean(settings.mail_more),
    }).then(setSettings, (e) => setError(errorText(e)));
  }, [settings && settings.language, current]);
  const onError = (/** @type {any} */ e) => setError(errorText(e));
  const onChange = (/** @type {NotificationSettings} */ s) => {
    setError(null);
    setSettings(s);
  };
  return html`<${TopBar} title=${t("notify.title")} />
    <main class="notify-page">
      <h1>${t("notify.title")}</h1>
      ${!me
        ? html`<p>${t("notify.sign_in")}</p>`
        : settings === null
          ? html`<p class="muted">${error || t("common.loading")}</p>`
          : html`<p class="muted">${t("notify.intro")}</p>
            ${settings.offered.length === 1 ? html`<p class="muted" data-testid="page-only">${t("notify.page_only")}</p>` : null}
            <${ChannelGrid} settings=${settings} onChange=${onChange} onError=${onError} />
            ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
            ${settings.offered.includes("push") ? html`<${PushSection} settings=${settings} onChange=${onChange} onError=${onError} />` : null}
            ${settings.offered.includes("email")
              ? html`<${EmailSection} settings=${settings} registered=${me.registered}
                  onChange=${onChange} onError=${onError} />`
              : null}`}
    </main>`;
}

/**
 * The page a mail's link opens: it confirms the address, or stops e-mail to it, with
 * the link's token and no session.
 * @param {{ action: "verify" | "unsubscribe", token: string }} props
 */
export function MailLinkPage({ action, token }) {
  const [state, setState] = useState(/** @type {"asking" | "working" | "done"} */ (action === "verify" ? "working" : "asking"));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const run = async () => {
    setState("working");
    try {
      await (action === "verify" ? api.verifyEmail(token) : api.unsubscribeEmail(token));
      setState("done");
    } catch (e) {
      setError(errorText(e));
    }
  };
  useEffect(() => {
    if (action === "verify") run();
  }, [token]);
  const title = t(action === "verify" ? "notify.verify.title" : "notify.unsubscribe.title");
  return html`<${TopBar} title=${title} />
    <main class="notify-page">
      <h1>${title}</h1>
      ${error
        ? html`<p class="error-text" role="alert">${error}</p>`
        : state === "done"
          ? html`<p role="status" data-testid="link-done">${t(action === "verify" ? "notify.verify.done" : "notify.unsubscribe.done")}</p>`
          : state === "asking"
            ? html`<p>${t("notify.unsubscribe.ask")}</p>
                <button type="button" class="primary" data-testid="unsubscribe" onClick=${run}>${t("notify.unsubscribe.button")}</button>`
            : html`<p class="muted">${t("common.loading")}</p>`}
      <p><a href="#/notifications">${t("notify.title")}</a></p>
    </main>`;
}
