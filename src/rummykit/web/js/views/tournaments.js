// Tournaments: the list with a form for a new one (#/tournaments) and one tournament's
// page (#/tournament/ID): register or withdraw, the entrants, your next table, each
// round's tables and the live standings (read again every few seconds while it runs).
// Every fetched value is rendered as text, never as markup.

import { html, useEffect, useState } from "../html.js";
import { t, errorText, formatDateTime, formatNumber } from "../i18n.js";
import { api } from "../api.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { go, tableHref } from "../router.js";
import { readCatalog } from "../catalog.js";
import { gameViews } from "../games.js";
import { CopyButton, NicknameForm, TopBar, computerNumber, levelName } from "./common.js";

/**
 * @import { Entrant, RoundTable, StandingLine, TournamentSummary, TournamentView,
 *   CreateTournament } from "../protocol-types"
 * @import { InputChange, SelectChange } from "./common.js"
 */

const REFRESH_MS = 3000;
const FORMATS = /** @type {const} */ (["swiss", "knockout"]);
/** A short game for a tournament's table: one Burraco hand, a few Three-Thirteen rounds. */
const QUICK_RULES = /** @type {Record<string, Record<string, unknown>>} */ ({
  burraco: { mode: "quick" },
  "three-thirteen": { first_round: 1, last_round: 5 },
});

/**
 * The address of a tournament's page.
 * @param {string} id
 * @returns {string}
 */
export function tournamentHref(id) {
  return `#/tournament/${encodeURIComponent(id)}`;
}

/**
 * An entrant's name as players read it: a computer by its level and number; a pair
 * (Burraco for four) by both names, or its first player's while it awaits a partner.
 * @param {Entrant | undefined} entrant
 * @returns {string}
 */
export function entrantName(entrant) {
  if (!entrant) return "?";
  const first =
    entrant.kind === "bot" ? t("table.bot_numbered", { level: levelName(entrant.level), n: (entrant.entry ?? 0) + 1 }) : entrant.name;
  if (!entrant.partner) return first;
  // a computer partner is numbered as the server names it, as its table names it
  const number = entrant.partner_kind === "bot" ? computerNumber(entrant.partner) : null;
  const partner = entrant.partner_kind !== "bot"
    ? entrant.partner
    : number === null
      ? t("table.bot", { level: levelName(entrant.partner_level ?? null) })
      : t("table.bot_numbered", { level: levelName(entrant.partner_level ?? null), n: number });
  return t("table.pair_name", { name: first, partner });
}

/**
 * @param {TournamentSummary} tournament
 * @returns {string}
 */
function statusText(tournament) {
  if (tournament.status === "running") {
    return t("tournament.status.running", { round: tournament.round + 1 });
  }
  return t(`tournament.status.${tournament.status}`);
}

/** @param {{ tournament: TournamentSummary }} props */
function Facts({ tournament }) {
  const facts = [t(`game.${tournament.game}`), t(`tournament.format.${tournament.format}`)];
  if (tournament.format === "swiss") facts.push(t("tournament.rounds_count", { count: tournament.rounds }));
  facts.push(
    t("tournament.table_size", { count: tournament.table_size }),
    t("tournament.entrants_of", { count: tournament.entrants, capacity: tournament.capacity }),
  );
  return html`<span class="tournament-facts muted">${facts.join(" · ")}</span>`;
}

/** @param {{ onMade: (id: string) => void }} props */
function NewTournament({ onMade }) {
  const { catalog } = useStore(session);
  const { games } = readCatalog(catalog);
  const [game, setGame] = useState(games[0]?.name || "burraco");
  const [name, setName] = useState("");
  const [format, setFormat] = useState(/** @type {"swiss" | "knockout"} */ ("swiss"));
  const [rounds, setRounds] = useState(3);
  const [tableSize, setTableSize] = useState(2);
  const [capacity, setCapacity] = useState(8);
  const [bots, setBots] = useState("greedy");
  const [startsAt, setStartsAt] = useState("");
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  const counts = games.find((g) => g.name === game)?.players || [2];
  // at a table of partners (Burraco for four) the entrants are pairs
  const pairsAt = (/** @type {number} */ n) => gameViews(game)?.partnerOf(0, n) != null;
  const levels = games.find((g) => g.name === game)?.botLevels || [];
  const submit = async (/** @type {Event} */ event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    /** @type {CreateTournament} */
    const body = {
      name: name.trim() || t("tournament.default_name"),
      game,
      format,
      rounds,
      table_size: counts.includes(tableSize) ? tableSize : counts[0],
      capacity,
      bot_level: bots || null,
      rules: QUICK_RULES[game] || {},
      starts_at: startsAt ? new Date(startsAt).getTime() / 1000 : null,
    };
    try {
      const made = await api.createTournament(body);
      onMade(made.id);
    } catch (/** @type {any} */ err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return html`<form class="panel new-tournament" onSubmit=${submit}>
    <h2>${t("tournament.new")}</h2>
    <label class="option"><span>${t("tournament.name")}</span>
      <input name="name" maxlength="64" value=${name} placeholder=${t("tournament.default_name")}
        onInput=${(/** @type {InputChange} */ e) => setName(e.target.value)} /></label>
    <label class="option"><span>${t("tournament.game")}</span>
      <select name="game" value=${game} onChange=${(/** @type {SelectChange} */ e) => setGame(e.target.value)}>
        ${games.map((g) => html`<option value=${g.name}>${t(`game.${g.name}`)}</option>`)}
      </select></label>
    <label class="option"><span>${t("tournament.format")}</span>
      <select name="format" value=${format}
        onChange=${(/** @type {SelectChange} */ e) => setFormat(e.target.value === "knockout" ? "knockout" : "swiss")}>
        ${FORMATS.map((f) => html`<option value=${f}>${t(`tournament.format.${f}`)}</option>`)}
      </select></label>
    ${format === "swiss"
      ? html`<label class="option"><span>${t("tournament.rounds")}</span>
          <input name="rounds" type="number" min="1" max="12" value=${rounds}
            onInput=${(/** @type {InputChange} */ e) => setRounds(Number(e.target.value))} /></label>`
      : null}
    <label class="option"><span>${t("tournament.players_per_table")}</span>
      <select name="table_size" value=${String(tableSize)}
        onChange=${(/** @type {SelectChange} */ e) => setTableSize(Number(e.target.value))}>
        ${counts.map((n) => html`<option value=${String(n)}>${pairsAt(n) ? t("tournament.table_of_pairs", { count: n }) : n}</option>`)}
      </select></label>
    <label class="option"><span>${t("tournament.capacity")}</span>
      <input name="capacity" type="number" min="2" max="64" value=${capacity}
        onInput=${(/** @type {InputChange} */ e) => setCapacity(Number(e.target.value))} /></label>
    <label class="option"><span>${t("tournament.bots")}</span>
      <select name="bot_level" value=${bots} onChange=${(/** @type {SelectChange} */ e) => setBots(e.target.value)}>
        <option value="">${t("tournament.no_bots")}</option>
        ${levels.map((level) => html`<option value=${level}>${t("table.bot", { level: levelName(level) })}</option>`)}
      </select></label>
    <label class="option"><span>${t("tournament.starts_at")}</span>
      <input name="starts_at" type="datetime-local" value=${startsAt}
        onInput=${(/** @type {InputChange} */ e) => setStartsAt(e.target.value)} /></label>
    <p class="muted small">${t("tournament.quick_note")}</p>
    ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
    <button type="submit" class="primary" disabled=${busy}>${t("tournament.create")}</button>
  </form>`;
}

/** The list of tournaments and the form for a new one. */
export function TournamentsPage() {
  const { me } = useStore(session);
  const [list, setList] = useState(/** @type {TournamentSummary[] | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    let alive = true;
    api
      .tournaments()
      .then((found) => alive && setList(found))
      .catch((/** @type {any} */ err) => alive && setError(errorText(err)));
    return () => {
      alive = false;
    };
  }, []);
  return html`<${TopBar} title=${t("tournament.tournaments")} />
    <main class="tournaments-page">
      <h1>${t("tournament.tournaments")}</h1>
      <p class="muted">${t("tournament.intro")}</p>
      ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
      ${list === null && !error ? html`<p class="muted">${t("common.loading")}</p>` : null}
      ${list && list.length === 0 ? html`<p class="muted">${t("tournament.none")}</p>` : null}
      ${list && list.length
        ? html`<ul class="tournament-list">
            ${list.map(
              (item) => html`<li key=${item.id} class="panel tournament-item" data-tournament=${item.id}>
                <a class="tournament-name" href=${tournamentHref(item.id)}>${item.name}</a>
                <span class="badge">${statusText(item)}</span>
                <${Facts} tournament=${item} />
              </li>`,
            )}
          </ul>`
        : null}
      ${me ? html`<${NewTournament} onMade=${(/** @type {string} */ id) => go(tournamentHref(id))} />`
        : html`<section class="panel"><${NicknameForm} title=${t("tournament.name_first")} /></section>`}
    </main>`;
}

/** @param {{ lines: StandingLine[], view: TournamentView }} props */
function Standings({ lines, view }) {
  const swiss = view.format === "swiss";
  return html`<section class="panel standings">
    <h2>${view.status === "over" ? t("tournament.results") : t("tournament.standings")}</h2>
    <div class="scroll-x">
      <table class="leaderboard-table standings-table">
        <thead><tr>
          <th scope="col">${t("rating.rank")}</th>
          <th scope="col">${t("rating.player")}</th>
          <th scope="col">${swiss ? t("tournament.points") : t("tournament.rounds_won")}</th>
          ${swiss ? html`<th scope="col" title=${t("tournament.buchholz_help")}>${t("tournament.buchholz")}</th>` : null}
          <th scope="col" title=${t("tournament.difference_help")}>${t("tournament.difference")}</th>
        </tr></thead>
        <tbody>
          ${lines.map((line) => {
            const entrant = view.entries.find((e) => e.entry === line.entry);
            return html`<tr key=${line.entry} data-entry=${line.entry} class=${entrant?.you ? "you" : ""}>
              <td class="rank">${line.place}</td>
              <td class="name">${entrantName(entrant)}${line.out !== null && line.out !== undefined
                ? html` <span class="muted small">${t("tournament.out_in", { round: line.out + 1 })}</span>` : null}</td>
              <td class="rating">${formatNumber(line.points)}</td>
              ${swiss ? html`<td class="rating">${formatNumber(line.buchholz ?? 0)}</td>` : null}
              <td class="rating">${formatNumber(Math.round(line.points_difference))}</td>
            </tr>`;
          })}
        </tbody>
      </table>
    </div>
  </section>`;
}

/**
 * A table of a round: who sat there and their totals once it is over; its players'
 * own while the round is played (every table has the same deal), so only they are led
 * to it, and anyone to its replay once the whole round is over.
 * @param {{ table: RoundTable, view: TournamentView, roundOver: boolean }} props
 */
function RoundTableRow({ table, view, roundOver }) {
  const seated = table.entries.map((entry) => view.entries.find((e) => e.entry === entry));
  const names = seated.map(entrantName);
  if (table.table_id === null) {
    return html`<li class="round-table bye">${names[0]} — ${t("tournament.bye")}</li>`;
  }
  const id = table.table_id;
  const mine = seated.some((entrant) => entrant?.you);
  let link = null;
  if (roundOver) link = html`<a href=${`#/replay/${encodeURIComponent(id)}`}>${t("tournament.replay")}</a>`;
  else if (mine) link = html`<a href=${tableHref(id)}>${t("tournament.to_table")}</a>`;
  else link = html`<span class="muted small">${table.totals ? t("tournament.table_over") : t("tournament.playing")}</span>`;
  return html`<li class=${mine ? "round-table you" : "round-table"} data-table=${id}>
    <span class="seats">${table.entries.map((entry, i) => html`<span class=${table.forfeits.includes(entry) ? "forfeit" : ""}>
      ${i ? " · " : ""}${names[i]}${table.totals ? ` ${formatNumber(table.totals[i])}` : ""}${table.forfeits.includes(entry) ? ` (${t("tournament.forfeit")})` : ""}</span>`)}</span>
    ${link}
  </li>`;
}

/**
 * How a pair's first player finds a partner: the pair's link to send, an invitation by
 * name (a registered player), whom it invited, and who left the pair.
 * @param {{ tournamentId: string, entrant: Entrant, busy: boolean, invite: (name: string) => void }} props
 */
function PairInvitation({ tournamentId, entrant, busy, invite }) {
  const [name, setName] = useState("");
  const link = new URL(`/#/tournament/${encodeURIComponent(tournamentId)}?pair=${encodeURIComponent(entrant.pair_token ?? "")}`, location.href).href;
  const submit = (/** @type {Event} */ event) => {
    event.preventDefault();
    if (name.trim()) invite(name.trim());
  };
  return html`<section class="panel pair-invitation" data-testid="pair-invitation">
    ${entrant.partner_left ? html`<p role="status" data-testid="partner-left">${t("tournament.partner_left", { name: entrant.partner_left })}</p>` : null}
    <p class="muted">${t("tournament.pair_link")}</p>
    <div class="invite">
      <input readonly value=${link} aria-label=${t("tournament.pair_link")} data-testid="pair-link"
        onFocus=${(/** @type {InputChange} */ e) => e.target.select()} />
      <${CopyButton} text=${link} label=${t("table.copy_invite")} />
    </div>
    <form class="invite-by-name" onSubmit=${submit}>
      <label>${t("tournament.invite_label")}
        <input value=${name} maxlength="64" autocomplete="off" data-testid="invite-name"
          onInput=${(/** @type {InputChange} */ e) => setName(e.target.value)} /></label>
      <button type="submit" disabled=${busy || !name.trim()}>${t("tournament.invite")}</button>
    </form>
    ${entrant.invited ? html`<p class="small" data-testid="invited">${t("tournament.invited", { name: entrant.invited })}</p>` : null}
  </section>`;
}

/**
 * One tournament's page; ``pairToken``, from a pair's link, offers to join that pair.
 * @param {{ tournamentId: string, pairToken?: string | null }} props
 */
export function TournamentPage({ tournamentId, pairToken = null }) {
  const { me } = useStore(session);
  const [view, setView] = useState(/** @type {TournamentView | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let alive = true;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const load = () =>
      api
        .tournament(tournamentId)
        .then((found) => {
          if (!alive) return;
          setView(found);
          if (found.status === "running" || found.status === "registering") timer = setTimeout(load, REFRESH_MS);
        })
        .catch((/** @type {any} */ err) => alive && setError(errorText(err)));
    load();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [tournamentId, me?.player_id]);
  const act = async (/** @type {(id: string) => Promise<TournamentView>} */ call) => {
    setBusy(true);
    setError(null);
    try {
      setView(await call(tournamentId));
    } catch (/** @type {any} */ err) {
      setError(errorText(err));
    }
    setBusy(false);
  };
  if (!view) {
    return html`<${TopBar} title=${t("tournament.tournaments")} />
      <main class="tournaments-page">
        ${error ? html`<p class="error-text" role="alert">${error}</p>` : html`<p class="muted">${t("common.loading")}</p>`}
        <a href="#/tournaments">${t("tournament.all")}</a>
      </main>`;
  }
  const registering = view.status === "registering";
  // a tournament of pairs (Burraco for four): a partner joins a pair awaiting one, by its
  // link or its invitation
  const pairs = gameViews(view.game)?.partnerOf(0, view.table_size) != null;
  const mine = view.entries.find((entrant) => entrant.you && entrant.player_id === me?.player_id);
  return html`<${TopBar} title=${t("tournament.tournaments")} />
    <main class="tournaments-page" data-status=${view.status}>
      <a href="#/tournaments">${t("tournament.all")}</a>
      <h1 class="tournament-title">${view.name}</h1>
      <p><span class="badge">${statusText(view)}</span> <${Facts} tournament=${view} /></p>
      ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
      ${view.your_table
        ? html`<p class="panel your-table"><a class="primary button" href=${tableHref(view.your_table)}>
            ${t("tournament.your_table", { round: view.round + 1 })}</a></p>`
        : null}
      ${registering && !me ? html`<section class="panel"><${NicknameForm} title=${t("tournament.name_first")} /></section>` : null}
      ${registering && me
        ? html`<p class="tournament-actions">
            ${view.registered
              ? html`<button type="button" class="withdraw" disabled=${busy} onClick=${() => act(api.withdrawTournament)}>${t("tournament.withdraw")}</button>`
              : html`<button type="button" class="primary register" disabled=${busy} onClick=${() => act((/** @type {string} */ id) => api.registerTournament(id))}>${pairs ? t("tournament.register_pair") : t("tournament.register")}</button>`}
            ${view.creator
              ? html`<button type="button" class="start" disabled=${busy} onClick=${() => act(api.startTournament)}>${t("tournament.start_now")}</button>`
              : null}
            <span class="muted small">${view.bot_level ? t("tournament.bots_fill", { level: levelName(view.bot_level) }) : t("tournament.starts_when_full")}</span>
            ${view.starts_at
              ? html`<span class="small" data-testid="starts-at">${t("tournament.starts_at_time", { time: formatDateTime(view.starts_at) })}</span>`
              : null}
          </p>`
        : null}
      ${view.standings.length ? html`<${Standings} lines=${view.standings} view=${view} />` : null}
      ${view.round_list.slice().reverse().map(
        (round) => html`<section key=${round.number} class="panel round" data-round=${round.number}>
          <h2>${t("tournament.round", { round: round.number + 1 })}${round.over ? "" : ` · ${t("tournament.playing")}`}</h2>
          <ul class="round-tables">${round.tables.map((table) => html`<${RoundTableRow} key=${table.number} table=${table} view=${view} roundOver=${round.over} />`)}</ul>
        </section>`,
      )}
      ${registering && me && pairs && pairToken && !view.registered
        ? html`<p class="panel join-pair"><button type="button" class="primary" data-testid="join-pair" disabled=${busy}
            onClick=${() => act((/** @type {string} */ id) => api.registerTournament(id, { pair: pairToken }))}>${t("tournament.join_pair")}</button></p>`
        : null}
      ${registering && mine?.pair_token
        ? html`<${PairInvitation} tournamentId=${tournamentId} entrant=${mine} busy=${busy}
            invite=${(/** @type {string} */ name) => act((/** @type {string} */ id) => api.invitePartner(id, name))} />`
        : null}
      ${registering
        ? html`<section class="panel entrants">
            <h2>${t("tournament.entrants_of", { count: view.entries.length, capacity: view.capacity })}</h2>
            <ul>${view.entries.map((entrant, i) => html`<li key=${i} class=${entrant.you ? "you" : ""}>${entrantName(entrant)}${pairs && !entrant.partner
              ? html` <span class="muted small">· ${t("tournament.awaiting_partner")}</span>${me && !view.registered && entrant.invites_you
                  ? html` <button type="button" class="small partner-with" data-partner=${entrant.player_id} disabled=${busy}
                      onClick=${() => act((/** @type {string} */ id) => api.registerTournament(id, { partner: entrant.player_id }))}>${t("tournament.partner_with", { name: entrant.name })}</button>`
                  : null}`
              : null}</li>`)}</ul>
          </section>`
        : null}
    </main>`;
}
