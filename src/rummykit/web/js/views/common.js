// Pieces every page shares: the top bar, the language switch, settings, dialogs.

import { html, useEffect, useRef, useState } from "../html.js";
import { LANGUAGES, errorText, has, language, setLanguage, t } from "../i18n.js";
import { api } from "../api.js";
import { session, settings } from "../store.js";
import { useStore } from "../hooks.js";
import { reducedMotion } from "../motion.js";
import { YourTurns } from "./your-turns.js";

/**
 * @import { Seat } from "../protocol-types"
 * @import { ComponentChildren } from "../../vendor/preact.module.js"
 */
/**
 * An input's change, as the handlers read it (its `value`, a box's `checked`).
 * @typedef {Event & { target: HTMLInputElement }} InputChange
 */
/** A select's change. @typedef {Event & { target: HTMLSelectElement }} SelectChange */
/**
 * Who sits at a seat, as the pages name them: a table's players (PlayerInfo), a replay's
 * or a listed table's seats (SeatInfo, `name` null while the seat is free).
 * @typedef {{ seat: Seat, name: string | null, kind: "human" | "bot", level?: string | null,
 *   connected?: boolean }} SeatHolder
 */

/** The buttons that switch the page's language. */
export function LanguageSwitch() {
  const current = language();
  return html`<div class="lang-switch" role="group" aria-label=${t("settings.language")}>
    ${LANGUAGES.map(
      (lang) => html`<button type="button" lang=${lang.code} aria-pressed=${String(lang.code === current)}
        title=${lang.name} data-lang=${lang.code} onClick=${() => setLanguage(lang.code)}>
        ${lang.code.toUpperCase()}</button>`,
    )}
  </div>`;
}

/**
 * A nickname to sit down under, for someone who arrives by a link before the lobby.
 * `onDone` hears that the session was started.
 * @param {{ title: string, onDone?: () => void }} props
 */
export function NicknameForm({ title, onDone }) {
  const [name, setName] = useState("");
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const submit = async (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    try {
      await api.guest(name.trim());
      const me = (await api.me().catch(() => null)) || { name: name.trim() };
      onDone?.(); // before the page knows its player: it sits down, never asked twice
      session.set({ me });
    } catch (err) {
      setError(errorText(err));
    }
  };
  return html`<form class="panel gate-form" onSubmit=${submit}>
    <h2>${title}</h2>
    ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
    <label class="field"><span>${t("lobby.nickname")}</span>
      <input name="nickname" required maxlength="24" value=${name} onInput=${(/** @type {InputChange} */ e) => setName(e.target.value)} /></label>
    <button class="primary" type="submit" disabled=${!name.trim()}>${t("lobby.sit_down")}</button>
  </form>`;
}

/**
 * The page's top bar: the way back to the lobby, the page's title, what the page adds,
 * the language switch and the settings.
 * `badge` goes beside the title (a table's rated or casual).
 * @param {{ title?: string | null, badge?: ComponentChildren, children?: ComponentChildren }} props
 */
export function TopBar({ title = null, badge = null, children = null }) {
  const [open, setOpen] = useState(false);
  return html`<header class="topbar">
    <a class="brand" href="#/" aria-label=${`rummykit: ${t("nav.lobby")}`}>
      <img src="img/favicon.svg" alt="" /><span class="brand-name">rummykit</span>
    </a>
    ${title ? html`<span class="title">${title}</span>` : null}
    ${badge}
    <span class="spacer"></span>
    ${children}
    <${YourTurns} />
    <${LanguageSwitch} />
    <button type="button" class="quiet settings-button" aria-label=${t("settings.title")}
      title=${t("settings.title")} onClick=${() => setOpen(true)}>⚙</button>
    ${open ? html`<${SettingsDialog} onClose=${() => setOpen(false)} />` : null}
  </header>`;
}

/**
 * A modal dialog: focus goes in and comes back when it closes; Escape and a click
 * outside close it when it has `onClose`.
 * @param {{ title: string, onClose?: (() => void) | null, children?: ComponentChildren,
 *   className?: string, labelledBy?: string | null }} props
 */
export function Dialog({ title, onClose, children, className = "", labelledBy = null }) {
  const box = useRef(/** @type {HTMLElement | null} */ (null));
  useEffect(() => {
    const previous = /** @type {HTMLElement | null} */ (document.activeElement);
    const first = /** @type {HTMLElement | null | undefined} */ (box.current?.querySelector("button, [href], input, select, textarea"));
    // the dialog opens at its top (its title, a game's result), wherever its first control is
    first?.focus({ preventScroll: true });
    if (box.current) box.current.scrollTop = 0;
    const onKey = (/** @type {KeyboardEvent} */ event) => {
      if (event.key === "Escape" && onClose) {
        event.stopPropagation();
        onClose();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, []);
  return html`<div class="dialog-backdrop" onClick=${(/** @type {MouseEvent} */ e) => e.target === e.currentTarget && onClose?.()}>
    <div class=${`dialog ${className}`} role="dialog" aria-modal="true" aria-label=${title} ref=${box}>
      ${title ? html`<h2 id=${labelledBy}>${title}</h2>` : null}
      ${children}
      ${onClose
        ? html`<button type="button" class="quiet dialog-close" aria-label=${t("common.close")} title=${t("common.close")}
            onClick=${onClose}>×</button>`
        : null}
    </div>
  </div>`;
}

/**
 * The player's settings: four colours, sounds, moving cards, pace, language, and the
 * way to the notifications' page.
 * @param {{ onClose: () => void }} props
 */
export function SettingsDialog({ onClose }) {
  const value = useStore(settings);
  const toggle = (/** @type {"fourColour" | "sounds" | "motion"} */ key) => settings.set({ [key]: !value[key] });
  return html`<${Dialog} title=${t("settings.title")} onClose=${onClose} className="settings">
    <div class="settings-grid">
      <label><input type="checkbox" checked=${value.fourColour} onChange=${() => toggle("fourColour")} />
        ${t("settings.four_colour")}</label>
      <label><input type="checkbox" checked=${value.sounds} onChange=${() => toggle("sounds")} />
        ${t("settings.sounds")}</label>
      ${reducedMotion()
        ? // the system asks for less motion: cards never fly, whatever was chosen here
          html`<label><input type="checkbox" checked=${false} disabled aria-describedby="motion-reduced" />
            ${t("settings.motion")}</label>
            <p class="muted settings-note" id="motion-reduced">${t("settings.motion_reduced")}</p>`
        : html`<label><input type="checkbox" checked=${value.motion} onChange=${() => toggle("motion")} />
            ${t("settings.motion")}</label>`}
      <label>${t("settings.pace")}
        <select value=${value.pace} onChange=${(/** @type {SelectChange} */ e) => settings.set({ pace: e.target.value })}>
          ${["slow", "normal", "fast", "instant"].map(
            (p) => html`<option value=${p}>${t(`settings.pace.${p}`)}</option>`,
          )}
        </select></label>
      <div class="settings-language"><span>${t("settings.language")}</span> <${LanguageSwitch} /></div>
      <a href="#/notifications" class="settings-notifications" onClick=${onClose}>${t("settings.notifications")}</a>
    </div>
    <div class="actions"><button type="button" class="primary" onClick=${onClose}>${t("common.close")}</button></div>
  <//>`;
}

/**
 * A small "copied!" aware copy button.
 * @param {{ text: string, label: string }} props
 */
export function CopyButton({ text, label }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const area = document.createElement("textarea");
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1800);
  };
  return html`<button type="button" class="copy-button" onClick=${copy}>
    ${copied ? t("common.copied") : label}</button>`;
}

/** What the player is waiting for while ``seat`` has the turn: its player, or someone to
 * take it when nobody sits there yet.
 * @param {SeatHolder[] | null | undefined} players
 * @param {Seat} seat
 * @returns {string}
 */
export function waitingFor(players, seat) {
  const player = players?.find((p) => p.seat === seat);
  if (player && player.kind !== "bot" && !player.name) return t("table.waiting_for_open_seat");
  return t("table.waiting_for", { name: seatName(players, seat) });
}

/**
 * A seat's name as the table shows it: a computer by its level ("Computer (Medium)",
 * numbered when there are several), else the person's name, or "Seat 2".
 * @param {SeatHolder[] | null | undefined} players
 * @param {Seat} seat
 * @returns {string}
 */
export function seatName(players, seat) {
  const player = players?.find((p) => p.seat === seat);
  if (!player) return t("table.seat", { n: seat + 1 });
  if (player.kind === "bot") {
    // a tournament's computer keeps its entrant's number; otherwise, with two computers
    // or more at the table, every one is told apart by its seat number
    const level = levelName(player.level);
    const given = computerNumber(player.name);
    if (given !== null) return t("table.bot_numbered", { level, n: given });
    const computers = (players || []).filter((p) => p.kind === "bot").length;
    return computers > 1 ? t("table.bot_numbered", { level, n: seat + 1 }) : t("table.bot", { level });
  }
  return player.name || t("table.empty_seat");
}

/**
 * The number in a computer player's name as the server gives it ("Computer 3 (Medium)":
 * a tournament's entrant), or null for a computer it does not number.
 * @param {string | null | undefined} name
 * @returns {number | null}
 */
export function computerNumber(name) {
  const found = /\d+/.exec(name ?? "");
  return found ? Number(found[0]) : null;
}

/**
 * A seat's name in few words, where several names share a line (a team of two): a
 * computer by its seat number ("Computer 3"; its plate gives its level), else the
 * person's name.
 * @param {SeatHolder[] | null | undefined} players
 * @param {Seat} seat
 * @returns {string}
 */
export function seatShortName(players, seat) {
  const player = players?.find((p) => p.seat === seat);
  if (player?.kind === "bot") return t("table.bot_short", { n: computerNumber(player.name) ?? seat + 1 });
  return seatName(players, seat);
}

/**
 * A computer player's level as players know it (Very easy to Expert), from the level spec
 * the protocol carries ("greedy", "ismcts:seconds=2"); a level this client does not know
 * is shown as its name.
 * @param {string | null | undefined} spec
 * @returns {string}
 */
export function levelName(spec) {
  const level = String(spec || "").split(":")[0];
  return has(`level.${level}`) ? t(`level.${level}`) : level;
}
