// A new table: game, every rule option the server lists, each seat a person or a bot,
// public or private, turn time, or a turn-based game of some days a move. A private
// table's invitation link shows at the table.

import { html, useState } from "../html.js";
import { has, t, errorText } from "../i18n.js";
import { api } from "../api.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { go, tableHref } from "../router.js";
import { defaultRules, readCatalog, seatCount } from "../catalog.js";
import { Dialog, levelName } from "./common.js";
import { gameViews } from "../games.js";

/**
 * @import { CreateTable, SeatRequest } from "../protocol-types"
 * @import { OptionInfo } from "../catalog.js"
 * @import { InputChange, SelectChange } from "./common.js"
 */

const TURN_TIMES = [0, 30, 60, 90, 120, 300];
// each seat's reserve for the game, drawn on when a turn runs past its turn time
const BANK_TIMES = [0, 60, 120, 300, 600];
// a turn-based game's times per move, when the server's catalog does not list them
const DAYS_PER_MOVE = [1, 2, 3, 5, 7, 14];

/**
 * A rule option's label in the player's language (else its name in words).
 * @param {string} game
 * @param {string} name
 */
export function optionLabel(game, name) {
  const key = `option.${game}.${name}`;
  return has(key) ? t(key) : name.replace(/_/g, " ");
}

/**
 * @param {string} game
 * @param {string} name
 * @param {unknown} value one of the option's choices
 */
export function choiceLabel(game, name, value) {
  const key = `option.${game}.${name}.${value}`;
  return has(key) ? t(key) : String(value);
}

/**
 * One rule option's field: a box, a list of choices or rounds, or a number or text.
 * @param {{ game: string, option: OptionInfo, value: unknown, rules: Record<string, unknown>,
 *   onChange: (value: unknown) => void }} props
 */
function RuleOption({ game, option, value, rules, onChange }) {
  const id = `opt-${option.name}`;
  const views = gameViews(game);
  const shown = views?.shownWhen[option.name];
  if (shown && !shown(rules)) return null;
  if (option.type === "bool") {
    return html`<label class="option check" for=${id}>
      <input id=${id} type="checkbox" checked=${Boolean(value)} onChange=${(/** @type {InputChange} */ e) => onChange(e.target.checked)} />
      <span>${optionLabel(game, option.name)}</span></label>`;
  }
  const numeric = option.type === "int";
  if (views?.roundOptions.includes(option.name)) {
    // a round by its number and the cards it deals (round 1 deals 3, round 11 deals 13)
    return html`<label class="option" for=${id}><span>${optionLabel(game, option.name)}</span>
      <select id=${id} value=${String(value)} onChange=${(/** @type {SelectChange} */ e) => onChange(Number(e.target.value))}>
        ${Array.from({ length: 11 }, (_, i) => html`<option value=${String(i + 1)}>${t("create.round_choice", { round: i + 1, count: i + 3 })}</option>`)}
      </select></label>`;
  }
  if (option.choices) {
    return html`<label class="option" for=${id}><span>${optionLabel(game, option.name)}</span>
      <select id=${id} value=${String(value)}
        onChange=${(/** @type {SelectChange} */ e) => onChange(numeric ? Number(e.target.value) : e.target.value)}>
        ${option.choices.map((c) => html`<option value=${String(c)}>${choiceLabel(game, option.name, c)}</option>`)}
      </select></label>`;
  }
  return html`<label class="option" for=${id}><span>${optionLabel(game, option.name)}</span>
    <input id=${id} type=${numeric ? "number" : "text"} value=${value}
      onInput=${(/** @type {InputChange} */ e) => onChange(numeric ? Number(e.target.value) : e.target.value)} /></label>`;
}

/**
 * Who sits in seat `i` as the creator (seat 0) sees it: you, your partner or an opponent
 * (numbered when there are several and no partners).
 * @param {number} i
 * @param {number} seats
 * @param {number | null} partner the creator's partner's seat, null without partners
 */
export function seatRole(i, seats, partner) {
  if (i === 0) return t("create.you");
  if (i === partner) return t("create.partner_seat");
  if (partner !== null || seats === 2) return t("create.opponent_seat");
  return t("create.opponent_n", { n: i });
}

/**
 * Where seat `i` plays from the creator's side: after you, before you, opposite; null at
 * a table of two.
 * @param {number} i
 * @param {number} seats
 * @param {number | null} partner
 */
function seatPlace(i, seats, partner) {
  if (seats === 2) return null;
  if (i === partner) return t("create.opposite");
  if (i === 1) return t("create.plays_after");
  if (i === seats - 1) return t("create.plays_before");
  return null;
}

/**
 * The new-table dialog, starting on `gameName`.
 * @param {{ gameName: string, onClose: () => void }} props
 */
export function CreateTableDialog({ gameName, onClose }) {
  const { catalog, me } = useStore(session);
  const { games, botLevels } = readCatalog(catalog);
  const [name, setName] = useState(gameName);
  const game = games.find((g) => g.name === name) || games[0];
  const [rulesByGame, setRulesByGame] = useState(/** @type {Record<string, Record<string, unknown>>} */ ({}));
  const rules = rulesByGame[game.name] || defaultRules(game);
  const [seatsByGame, setSeatsByGame] = useState(/** @type {Record<string, number>} */ ({}));
  const seats = seatsByGame[game.name] ?? seatCount(game, rules);
  const [seatKinds, setSeatKinds] = useState(/** @type {Record<number, string>} "human" or "bot:LEVEL" */ ({}));
  // the computer level last chosen: a seat added by a larger number of players gets it
  const [botChoice, setBotChoice] = useState("bot:greedy");
  const [isPrivate, setPrivate] = useState(false);
  // rated games are for registered players at tables of people only (docs/competition.md)
  const [ratedChoice, setRated] = useState(true);
  // the turn time chosen (null: not yet, then none against the computer only, as "Play
  // now", and 60 s when people share the table)
  const [turnChoice, setTurnSeconds] = useState(/** @type {number | null} */ (null));
  const [bankSeconds, setBankSeconds] = useState(120);
  // a turn-based game's days a move (0: a live game, with the turn time above)
  const [days, setDays] = useState(0);
  const dayChoices = catalog?.days_per_move?.length ? catalog.days_per_move : DAYS_PER_MOVE;
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  const [showAdvanced, setShowAdvanced] = useState(false);

  const setRule = (/** @type {string} */ option, /** @type {unknown} */ value) => setRulesByGame({ ...rulesByGame, [game.name]: { ...rules, [option]: value } });
  const seatValue = (/** @type {number} */ i) => (i === 0 ? "you" : seatKinds[i] ?? botChoice);
  const setSeat = (/** @type {number} */ i, /** @type {string} */ value) => {
    setSeatKinds({ ...seatKinds, [i]: value });
    if (value.startsWith("bot:")) setBotChoice(value);
  };
  // the published rating of a seat's computer level, under its choice (the choice's own
  // text stays short enough for a phone)
  const seatRating = (/** @type {number} */ i) => {
    const level = seatValue(i).startsWith("bot:") ? seatValue(i).slice(4) : null;
    return level && level in game.botRatings
      ? html`<span class="muted bot-rating">${t("create.bot_rating", { rating: game.botRatings[level] })}</span>`
      : null;
  };
  const withPeople = Array.from({ length: seats }, (_, i) => seatValue(i)).filter((v) => v === "human").length > 0;
  const turnSeconds = turnChoice ?? (withPeople ? 60 : 0);
  // where partners sit by their seats (Burraco for four): which seat is the creator's partner
  const partnerOf = gameViews(game.name)?.partnerOf;
  const partner = partnerOf ? partnerOf(0, seats) : null;
  const mayBeRated = Boolean(me?.registered) && Array.from({ length: seats }, (_, i) => seatValue(i)).every((v) => !v.startsWith("bot:"));

  const submit = async (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    /** @type {SeatRequest[]} */
    const seatSpec = Array.from({ length: seats }, (_, i) => {
      const value = seatValue(i);
      if (value.startsWith("bot:")) return { kind: "bot", level: value.slice(4) };
      return { kind: "human" };
    });
    try {
      const chosen = { ...rules };
      if ("players" in chosen) chosen.players = seats;
      const created = await api.createTable({
        game: /** @type {CreateTable["game"]} */ (game.name),
        rules: chosen,
        seats: seatSpec,
        private: isPrivate,
        turn_seconds: days ? null : turnSeconds || null,
        time_bank_seconds: !days && turnSeconds && bankSeconds ? bankSeconds : null,
        days_per_move: days || null,
        rated: mayBeRated && ratedChoice,
      });
      go(tableHref(created.table_id, created.invite_token));
      onClose();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  const main = game.options.filter((o) => ["mode", "target", "jokers"].includes(o.name));
  const advanced = game.options.filter((o) => !main.includes(o));
  return html`<${Dialog} title=${t("create.title")} onClose=${onClose} className="create-table">
    <form class="create-form" onSubmit=${submit}>
      <fieldset class="game-choice">
        <legend>${t("create.game")}</legend>
        ${games.map(
          (g) => html`<label class=${g.name === game.name ? "chip active" : "chip"}>
            <input type="radio" name="game" value=${g.name} checked=${g.name === game.name}
              onChange=${() => setName(g.name)} />${t(`game.${g.name}`)}</label>`,
        )}
      </fieldset>
      <fieldset class="rule-options">
        <legend>${t("create.rules")}</legend>
        ${main.map(
          (o) => html`<${RuleOption} game=${game.name} option=${o} value=${rules[o.name]} rules=${rules}
            onChange=${(/** @type {unknown} */ v) => setRule(o.name, v)} />`,
        )}
        ${advanced.length
          ? html`<div class="more-rules"><button type="button" class="small quiet" aria-expanded=${String(showAdvanced)}
              onClick=${() => setShowAdvanced(!showAdvanced)}>${showAdvanced ? "▾" : "▸"} ${t("create.more_rules")}</button></div>`
          : null}
        ${showAdvanced
          ? advanced.map(
              (o) => html`<${RuleOption} game=${game.name} option=${o} value=${rules[o.name]} rules=${rules}
                onChange=${(/** @type {unknown} */ v) => setRule(o.name, v)} />`,
            )
          : null}
      </fieldset>
      <fieldset class="seats">
        <legend>${t("create.seats")}</legend>
        ${game.players.length > 1
          ? html`<label class="option"><span>${t("create.players")}</span>
              <select name="players" value=${String(seats)} onChange=${(/** @type {SelectChange} */ e) => setSeatsByGame({ ...seatsByGame, [game.name]: Number(e.target.value) })}>
                ${game.players.map((n) => html`<option value=${String(n)}>${n}</option>`)}
              </select></label>`
          : null}
        ${Array.from({ length: seats }, (_, i) => html`<label class="option seat-option" data-seat-row=${i}>
          <span class="seat-role">${seatRole(i, seats, partner)}${i > 0 && seatPlace(i, seats, partner)
            ? html` <span class="muted seat-side">· ${seatPlace(i, seats, partner)}</span>`
            : null}</span>
          ${i === 0
            ? html`<strong class="seat-me">${me?.name || ""}</strong>`
            : html`<select data-seat=${i} value=${seatValue(i)} onChange=${(/** @type {SelectChange} */ e) => setSeat(i, e.target.value)}>
                <option value="human">${t("create.seat_human")}</option>
                ${botLevels.map((level) => html`<option value=${`bot:${level}`}>${t("table.bot", { level: levelName(level) })}</option>`)}
              </select>
              ${seatRating(i)}`}
        </label>`)}
      </fieldset>
      <fieldset class="table-options">
        <legend>${t("create.table")}</legend>
        <label class="option check"><input type="checkbox" name="private" checked=${isPrivate}
          onChange=${(/** @type {InputChange} */ e) => setPrivate(e.target.checked)} /><span>${t("create.private")}</span></label>
        ${mayBeRated
          ? html`<div class="rating-choice" role="radiogroup" aria-label=${t("create.rating_choice")}>
              <label class="option check"><input type="radio" name="rated" value="casual" checked=${!ratedChoice}
                onChange=${() => setRated(false)} /><span>${t("create.casual")}</span></label>
              <label class="option check"><input type="radio" name="rated" value="rated" checked=${ratedChoice}
                onChange=${() => setRated(true)} /><span>${t("create.rated")}</span></label></div>`
          : null}
        <label class="option"><span>${t("create.pace")}</span>
          <select name="days_per_move" value=${String(days)} onChange=${(/** @type {SelectChange} */ e) => setDays(Number(e.target.value))}>
            <option value="0">${t("create.live")}</option>
            ${dayChoices.map((d) => html`<option value=${String(d)}>${t("create.days_per_move", { days: d })}</option>`)}
          </select></label>
        ${days
          ? html`<p class="muted timer-note">${t("create.turn_based_note")}</p>`
          : html`<label class="option"><span>${t("create.turn_time")}</span>
          <select name="turn_seconds" value=${String(turnSeconds)} onChange=${(/** @type {SelectChange} */ e) => setTurnSeconds(Number(e.target.value))}>
            ${TURN_TIMES.map((s) => html`<option value=${String(s)}>${s ? t("lobby.turn_time_s", { seconds: s }) : t("lobby.no_timer")}</option>`)}
          </select></label>
        ${turnSeconds
          ? html`<label class="option"><span>${t("create.time_bank")}</span>
              <select name="time_bank_seconds" value=${String(bankSeconds)} onChange=${(/** @type {SelectChange} */ e) => setBankSeconds(Number(e.target.value))}>
                ${BANK_TIMES.map((s) => html`<option value=${String(s)}>${s ? t("create.bank_s", { seconds: s }) : t("create.no_bank")}</option>`)}
              </select></label>`
          : null}
        <p class="muted timer-note">${t(withPeople ? "create.timer_people" : "create.timer_bots")}</p>`}
      </fieldset>
      ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
      <div class="actions">
        <button type="button" onClick=${onClose}>${t("common.cancel")}</button>
        <button type="submit" class="primary" disabled=${busy}>${t("create.submit")}</button>
      </div>
    </form>
  <//>`;
}
