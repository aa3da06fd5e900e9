// The moderators' pages: the report queue and the log of every action (#/mod), and one
// player's case (#/mod/ID): the reports about them, the measures in force, the accounts
// linked to theirs, their assessed games (fair play, with each game's replay), and the
// actions (mark, mute, close, lift), each with its reason.  Everything fetched is shown
// as text.

import { html, useEffect, useState } from "../html.js";
import { t, errorText, formatDateTime } from "../i18n.js";
import { api } from "../api.js";
import { TopBar } from "./common.js";

/**
 * @import { AccountView, AssessmentView, LogEntry, PlayerCase, ReportView } from "../protocol-types"
 * @import { InputChange, SelectChange } from "./common.js"
 */

const ACTIONS = /** @type {const} */ (["mark_engine", "mark_booster", "mute", "close"]);

/** Who filed a report, and when: a player, or the fair-play assessment.
 * @param {ReportView} r */
function reportedBy(r) {
  return r.reason === "assessment"
    ? t("mod.reported_by_assessment", { time: formatDateTime(r.at) })
    : t("mod.reported_by", { name: r.reporter, time: formatDateTime(r.at) });
}

/** @param {number | null} share */
function percent(share) {
  return share === null ? "–" : `${Math.round(share * 100)}%`;
}

/** The player's assessed games, newest first, and their pooling.
 * @param {{ account: AccountView, assessments: AssessmentView[] }} props */
function Assessments({ account, assessments }) {
  return html`<section class="panel" aria-labelledby="case-assessments">
    <h2 id="case-assessments">${t("mod.assessments")}</h2>
    ${assessments.length === 0
      ? html`<p class="muted">${t("mod.no_assessments")}</p>`
      : html`<p data-testid="assessment-account">${t("mod.account_line", {
          games: account.games, flagged: account.flagged_games, matched: account.telling_matched,
          telling: account.telling, evidence: account.evidence.toFixed(1),
        })}${account.partner_evidence != null ? ` · ${t("mod.account_partner_line", {
          telling: account.partner_telling ?? 0, evidence: account.partner_evidence.toFixed(1),
        })}` : ""}${account.reported ? html` <span class="badge">${t("mod.account_reported")}</span>` : null}</p>
        <ul>${assessments.map((a) => html`<li key=${`${a.table_id}-${a.seat}`} data-testid="assessment">
          <span class="badge">${t(`mod.verdict.${a.verdict}`)}</span>
          ${t("mod.assessment_line", {
            matched: a.telling_matched, telling: a.telling, share: percent(a.match_share),
            loss: a.mean_loss.toFixed(1), evidence: a.evidence.toFixed(1),
          })}${a.focus_losses_per_turn != null && a.focus_losses_per_turn > 0
            ? ` · ${t("mod.focus_line", { share: percent(a.focus_losses_per_turn) })}` : ""}${
          a.partner_telling != null
            ? ` · ${t("mod.partner_line", {
              matched: a.partner_matched ?? 0, telling: a.partner_telling,
              gain: (a.partner_gain ?? 0).toFixed(1), evidence: (a.partner_evidence ?? 0).toFixed(1),
            })}` : ""}${" "}<a href=${`#/replay/${encodeURIComponent(a.table_id)}`}>${t("lobby.replay")}</a></li>`)}</ul>`}
  </section>`;
}

/** @param {string} id */
function caseHref(id) {
  return `#/mod/${encodeURIComponent(id)}`;
}

/**
 * The moderators' pages: the queue and the log, or one player's case.
 * @param {{ playerId?: string | null }} props
 */
export function ModerationPage({ playerId = null }) {
  return html`<${TopBar} title=${t("mod.title")} />
    <main class="moderation-page">
      ${playerId ? html`<${PlayerCaseView} key=${playerId} playerId=${playerId} />` : html`<${Queue} />`}
    </main>`;
}

function Queue() {
  const [reports, setReports] = useState(/** @type {ReportView[] | null} */ (null));
  const [log, setLog] = useState(/** @type {LogEntry[]} */ ([]));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    Promise.all([api.reportQueue(), api.moderationLog()])
      .then(([queue, entries]) => {
        setReports(queue);
        setLog(entries);
      })
      .catch((err) => setError(errorText(err)));
  }, []);
  if (error) return html`<p class="error-text" role="alert" data-testid="mod-error">${error}</p>`;
  if (!reports) return html`<p class="muted">${t("common.loading")}</p>`;
  return html`<section class="panel" aria-labelledby="mod-queue">
      <h1 id="mod-queue">${t("mod.queue")}</h1>
      ${reports.length === 0
        ? html`<p class="muted">${t("mod.queue_empty")}</p>`
        : html`<ul class="report-queue">${reports.map((r) => html`<li key=${r.id} data-testid="queued-report">
            <a href=${caseHref(r.reported_id)}>${r.reported}</a>
            <span class="badge">${t(`report.reason.${r.reason}`)}</span>
            <span class="muted small">${reportedBy(r)}</span>
            ${r.text ? html`<p class="report-text">${r.text}</p>` : null}
          </li>`)}</ul>`}
    </section>
    <${LogList} entries=${log} />`;
}

/** @param {{ entries: LogEntry[] }} props */
function LogList({ entries }) {
  return html`<section class="panel" aria-labelledby="mod-log">
    <h2 id="mod-log">${t("mod.log")}</h2>
    ${entries.length === 0
      ? html`<p class="muted">${t("mod.log_empty")}</p>`
      : html`<ul class="mod-log">${entries.map((e, i) => html`<li key=${i} data-testid="log-entry">
          <span class="muted small">${formatDateTime(e.at)}</span>
          ${t("mod.log_line", { moderator: e.moderator, action: t(`mod.action.${e.action}`), player: e.player ?? "" })}
          <span class="muted"> — ${e.reason}</span></li>`)}</ul>`}
  </section>`;
}

/** @param {{ playerId: string }} props */
function PlayerCaseView({ playerId }) {
  const [view, setView] = useState(/** @type {PlayerCase | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [action, setAction] = useState(/** @type {typeof ACTIONS[number]} */ ("mute"));
  const [minutes, setMinutes] = useState("60");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.playerCase(playerId).then(setView).catch((err) => setError(errorText(err)));
  }, [playerId]);
  const run = async (/** @type {Parameters<typeof api.moderate>[1]} */ body) => {
    setBusy(true);
    setError(null);
    try {
      setView(await api.moderate(playerId, body));
      setReason("");
    } catch (/** @type {any} */ err) {
      setError(errorText(err));
    }
    setBusy(false);
  };
  const submit = (/** @type {Event} */ event) => {
    event.preventDefault();
    run({ action, reason: reason.trim(), minutes: action === "mute" ? Number(minutes) : null });
  };
  if (!view) {
    return error ? html`<p class="error-text" role="alert" data-testid="mod-error">${error}</p>` : html`<p class="muted">${t("common.loading")}</p>`;
  }
  return html`<a href="#/mod">${t("mod.back")}</a>
    <h1 data-testid="case-name">${view.name}${view.registered ? "" : html`<span class="muted"> (${t("profile.guest")})</span>`}</h1>
    ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
    <section class="panel" aria-labelledby="case-sanctions">
      <h2 id="case-sanctions">${t("mod.sanctions")}</h2>
      ${view.sanctions.length === 0
        ? html`<p class="muted">${t("mod.no_sanctions")}</p>`
        : html`<ul>${view.sanctions.map((s, i) => html`<li key=${i} data-testid="sanction" data-kind=${s.kind}>
            ${t(`mod.sanction.${s.kind}`)}${s.until ? ` · ${t("mod.until", { time: formatDateTime(s.until) })}` : ""}
            <button type="button" class="small" disabled=${busy || reason.trim().length < 3}
              onClick=${() => run({ action: "lift", kind: s.kind, reason: reason.trim() })}>${t("mod.lift")}</button></li>`)}</ul>`}
      <form class="mod-action" onSubmit=${submit}>
        <label>${t("mod.action")}
          <select value=${action} data-testid="mod-action" onChange=${(/** @type {SelectChange} */ e) => setAction(/** @type {typeof ACTIONS[number]} */ (e.target.value))}>
            ${ACTIONS.map((a) => html`<option key=${a} value=${a}>${t(`mod.action.${a}`)}</option>`)}
          </select></label>
        ${action === "mute"
          ? html`<label>${t("mod.minutes")}<input type="number" min="1" value=${minutes} data-testid="mod-minutes"
              onInput=${(/** @type {InputChange} */ e) => setMinutes(e.target.value)} /></label>`
          : null}
        <label>${t("mod.reason")}<input maxlength="500" value=${reason} data-testid="mod-reason"
          onInput=${(/** @type {InputChange} */ e) => setReason(e.target.value)} /></label>
        <button type="submit" class="primary" data-testid="mod-apply" disabled=${busy || reason.trim().length < 3}>${t("mod.apply")}</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="case-reports">
      <h2 id="case-reports">${t("mod.reports")}</h2>
      ${view.reports.length === 0
        ? html`<p class="muted">${t("mod.no_reports")}</p>`
        : html`<ul>${view.reports.map((r) => html`<li key=${r.id}><span class="badge">${t(`report.reason.${r.reason}`)}</span>
            ${reportedBy(r)}
            ${r.table_id ? html` <a href=${`#/replay/${encodeURIComponent(r.table_id)}`}>${t("lobby.replay")}</a>` : null}
            ${r.text ? html`<p class="report-text">${r.text}</p>` : null}</li>`)}</ul>`}
    </section>
    <section class="panel" aria-labelledby="case-linked">
      <h2 id="case-linked">${t("mod.linked")}</h2>
      ${view.linked.length === 0
        ? html`<p class="muted">${t("mod.no_linked")}</p>`
        : html`<ul>${view.linked.map((l) => html`<li key=${l.player_id} data-testid="linked-account">
            <a href=${caseHref(l.player_id)}>${l.name}</a> <span class="muted small">${l.by.map((k) => t(`mod.link.${k}`)).join(", ")}</span></li>`)}</ul>`}
    </section>
    <${Assessments} account=${view.account} assessments=${view.assessments} />
    <${LogList} entries=${view.log} />`;
}
