// A game step by step (GET /api/tables/{id}/replay): the player's own view while the game
// runs; once it is over any seat's view, or every hand at once.  A long game is read by
// deal (a Burraco hand, a Three-Thirteen round): headings in the move list with each
// deal's totals at its end, a jump to the previous or next deal (also PageUp/PageDown),
// and the slider marked where each deal starts.

import { html, useEffect, useLayoutEffect, useRef, useState } from "../html.js";
import { t, errorText } from "../i18n.js";
import { api } from "../api.js";
import { readObservation } from "../model.js";
import { NicknameForm, TopBar, seatName } from "./common.js";
import { gameViews } from "../games.js";
import { describeAction } from "../move-words.js";
import { Store, session } from "../store.js";
import { useStore } from "../hooks.js";
import { useKeys } from "../keys.js";

/**
 * @import { Seat } from "../protocol-types"
 * @import { Replay, ReplayStep } from "../api.js"
 * @import { BoardState } from "../table-controller.js"
 * @import { InputChange, SelectChange } from "./common.js"
 */

const idle = { act: () => false, askHint: () => {}, explain: () => {}, chat: () => false, dismissError: () => {}, store: new Store({}) };

/**
 * A deal of the game: its first step, its title, and the totals once it is over (the
 * first step of the next deal; null for the deal under way at the last step).
 * @typedef {{ first: number, title: string, totals: number[] | null }} Deal
 */

/**
 * The game's deals in order.  A move belongs to the deal it was played in: the one of
 * the step before it; a game of rounds (Three-Thirteen) names a round by its number, one
 * of hands counts them.  Once the game is ``over`` its last deal's totals are the last
 * step's.
 * @param {ReplayStep[]} steps @param {boolean} over
 * @returns {Deal[]}
 */
export function dealsOf(steps, over) {
  /** @type {Deal[]} */
  const deals = [];
  let deal = -1;
  steps.forEach((s, i) => {
    const before = /** @type {{ hand_number?: number, round_number?: number }} */ (steps[Math.max(0, i - 1)].observation);
    const hand = Number(before.hand_number ?? 0);
    if (hand === deal) return;
    deal = hand;
    if (deals.length > 0) {
      deals[deals.length - 1].totals = /** @type {{ totals?: number[] }} */ (before).totals ?? null;
    }
    const round = before.round_number;
    deals.push({ first: i, title: round === undefined ? t("replay.deal", { n: hand + 1 }) : t("replay.round", { n: round }), totals: null });
  });
  if (over && deals.length > 0 && steps.length > 1) {
    deals[deals.length - 1].totals = /** @type {{ totals?: number[] }} */ (steps[steps.length - 1].observation).totals ?? null;
  }
  return deals;
}

/**
 * The deal a step belongs to (its index in ``deals``).
 * @param {Deal[]} deals @param {number} step
 */
function dealAt(deals, step) {
  let index = 0;
  while (index + 1 < deals.length && deals[index + 1].first <= step) index += 1;
  return index;
}

/**
 * The line under a finished deal: every seat's total after it.
 * @param {number[]} totals @param {Seat[]} seats @param {(seat: Seat) => string} nameOf
 * @param {string} key
 */
function totalsRow(totals, seats, nameOf, key) {
  const scores = seats.map((seat) => `${nameOf(seat)} ${totals[seat] ?? 0}`).join(", ");
  return html`<li class="replay-deal-totals muted small" key=${key} data-testid="replay-deal-totals">${t("replay.totals", { scores })}</li>`;
}

/**
 * The moves of the game in words, the current one marked; a click jumps to a move. A new
 * deal (hand or round) starts a numbered heading; a finished deal ends with the totals.
 * @param {{ steps: ReplayStep[], deals: Deal[], step: number, game: string,
 *   nameOf: (seat: Seat) => string, seats: Seat[], onPick: (step: number) => void }} props
 */
function MoveList({ steps, deals, step, game, nameOf, seats, onPick }) {
  const list = useRef(/** @type {HTMLElement | null} */ (null));
  useLayoutEffect(() => {
    // keep the current move in view inside the list (never scrolling the page itself)
    const box = list.current;
    const item = /** @type {HTMLElement | null} */ (box?.querySelector("[aria-current=step]") ?? null);
    if (!box || !item) return;
    // where the item stands against the list's visible box, in the same (viewport)
    // coordinates: offsetTop would be measured from another offsetParent; only the list's
    // own scrollTop moves, so the page never jumps
    const seen = box.getBoundingClientRect();
    const at = item.getBoundingClientRect();
    const top = seen.top + box.clientTop;
    const bottom = top + box.clientHeight;
    if (at.top < top) box.scrollTop -= top - at.top;
    else if (at.bottom > bottom) box.scrollTop += Math.min(at.bottom - bottom, at.top - top);
  }, [step, steps.length]);
  /** @type {unknown[]} */
  const rows = [];
  let next = 0;
  steps.forEach((s, i) => {
    if (next < deals.length && deals[next].first === i) {
      const ended = next > 0 ? deals[next - 1] : null;
      if (ended?.totals) rows.push(totalsRow(ended.totals, seats, nameOf, `totals-${next}`));
      rows.push(html`<li class="replay-deal" key=${`deal-${next}`}>${deals[next].title}</li>`);
      next += 1;
    }
    const text = s.action ? `${nameOf(/** @type {Seat} an action has its actor */ (s.seat))}: ${describeAction(s.action, game)}` : t("replay.start");
    rows.push(html`<li key=${i}><button type="button" class="quiet replay-move" data-step=${i}
        aria-current=${i === step ? "step" : null} onClick=${() => onPick(i)}>
        <span class="replay-move-number">${i}</span> ${text}</button></li>`);
  });
  const final = deals.length > 0 ? deals[deals.length - 1].totals : null;
  if (final) rows.push(totalsRow(final, seats, nameOf, "totals-last"));
  return html`<nav class="replay-moves" aria-label=${t("replay.moves")}>
    <h2 class="replay-moves-title">${t("replay.moves")}</h2>
    <ol ref=${list} data-testid="replay-moves">${rows}</ol>
  </nav>`;
}

/**
 * The replay page (#/replay/ID): a board at each step, with the controls to move.
 * @param {{ tableId: string, token?: string | null }} props
 */
export function ReplayPage({ tableId, token = null }) {
  const { me, checked } = useStore(session);
  const [seat, setSeat] = useState(/** @type {Seat | null} */ (null));
  const [full, setFull] = useState(false);
  const [replay, setReplay] = useState(/** @type {Replay | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    let alive = true;
    setError(null);
    api
      .replay(tableId, { seat, full, token })
      .then((data) => {
        if (!alive) return;
        setReplay(data);
        setStep((s) => Math.min(s, data.steps.length - 1));
      })
      .catch((err) => alive && setError(errorText(err)));
    return () => {
      alive = false;
    };
  }, [tableId, token, seat, full, me]);
  const last = replay ? replay.steps.length - 1 : 0;
  const deals = replay ? dealsOf(replay.steps, replay.over) : [];
  const toDeal = (/** @type {number} */ by) => {
    const index = dealAt(deals, step);
    // back: the start of this deal, or of the one before when already at its start
    const target = by < 0 && deals[index].first < step ? index : Math.max(0, Math.min(deals.length - 1, index + by));
    setPlaying(false);
    setStep(deals[target].first);
  };
  useEffect(() => {
    if (!playing) return undefined;
    if (step >= last) {
      setPlaying(false);
      return undefined;
    }
    const id = setTimeout(() => setStep((s) => Math.min(last, s + 1)), 900);
    return () => clearTimeout(id);
  }, [playing, step, last]);
  useKeys((key) => {
    if (key === "arrowright") setStep((s) => Math.min(last, s + 1));
    else if (key === "arrowleft") setStep((s) => Math.max(0, s - 1));
    else if (key === "home") setStep(0);
    else if (key === "end") setStep(last);
    else if (key === "pageup" && deals.length) toDeal(-1);
    else if (key === "pagedown" && deals.length) toDeal(1);
    else return false;
    return true;
  });

  if (error && !replay && checked && !me) {
    // a replay link opened by someone who has not sat down anywhere yet
    return html`<${TopBar} title=${t("replay.title")} /><main class="gate"><${NicknameForm} title=${t("replay.title")} /></main>`;
  }
  if (error && !replay) {
    return html`<${TopBar} title=${t("replay.title")} /><main class="replay"><p class="error-text">${error}</p><a href="#/">${t("nav.lobby")}</a></main>`;
  }
  if (!replay) return html`<${TopBar} title=${t("replay.title")} /><main class="replay"><p class="muted">${t("common.loading")}</p></main>`;
  const game = replay.game;
  const Board = gameViews(game)?.Board;
  const current = replay.steps[step];
  const players = replay.players.map((p) => ({ ...p, connected: true }));
  const nameOf = (/** @type {Seat} */ s) => seatName(players, s);
  const view = readObservation(game, current.observation);
  /** @type {BoardState} */
  const state = {
    view,
    game,
    seat: replay.seat,
    ownSeat: replay.own_seat ?? null,
    players,
    legal: [],
    turn: null,
    chat: [],
    log: [],
    errors: [],
    hint: null,
    message: { state_number: current.state_number },
    status: "open",
    revealed: current.hands || null,
    readOnly: true,
  };
  return html`<div class="replay-page table-page game-${game}">
    <${TopBar} title=${`${t("replay.title")} · ${t(`game.${game}`)}`} />
    <div class="replay-controls" role="group" aria-label=${t("replay.controls")}>
      <button type="button" class="small replay-first" data-testid="replay-first" onClick=${() => setStep(0)}
        aria-label=${t("replay.first")} title=${`${t("replay.first")} (Home)`}><span aria-hidden="true">|◀</span></button>
      ${deals.length > 1
        ? html`<button type="button" class="small" data-testid="replay-prev-deal" onClick=${() => toDeal(-1)}
            aria-label=${t("replay.previous_deal")} title=${`${t("replay.previous_deal")} (PageUp)`}><span aria-hidden="true">◀◀</span></button>`
        : null}
      <button type="button" class="small" data-testid="replay-prev" onClick=${() => setStep(Math.max(0, step - 1))}
        aria-label=${t("replay.previous")} title=${`${t("replay.previous")} (←)`}><span aria-hidden="true">◀</span> <span class="label">${t("replay.back")}</span></button>
      <button type="button" class="small" data-testid="replay-play" onClick=${() => setPlaying(!playing)}
        aria-label=${playing ? t("replay.pause") : t("replay.play")} title=${playing ? t("replay.pause") : t("replay.play")}>
        <span aria-hidden="true">${playing ? "❚❚" : "▶"}</span> <span class="label">${playing ? t("replay.pause") : t("replay.play")}</span></button>
      <button type="button" class="small" data-testid="replay-next" onClick=${() => setStep(Math.min(last, step + 1))}
        aria-label=${t("replay.next")} title=${`${t("replay.next")} (→)`}><span class="label">${t("replay.forward")}</span> <span aria-hidden="true">▶</span></button>
      ${deals.length > 1
        ? html`<button type="button" class="small" data-testid="replay-next-deal" onClick=${() => toDeal(1)}
            aria-label=${t("replay.next_deal")} title=${`${t("replay.next_deal")} (PageDown)`}><span aria-hidden="true">▶▶</span></button>`
        : null}
      <button type="button" class="small replay-last" data-testid="replay-last" onClick=${() => setStep(last)}
        aria-label=${t("replay.last")} title=${`${t("replay.last")} (End)`}><span aria-hidden="true">▶|</span></button>
      <input type="range" min="0" max=${last} value=${step} list="replay-deal-starts" aria-label=${t("replay.step")} onInput=${(/** @type {InputChange} */ e) => setStep(Number(e.target.value))} />
      <datalist id="replay-deal-starts">${deals.map((d) => html`<option key=${d.first} value=${String(d.first)} label=${d.title}></option>`)}</datalist>
      <span class="replay-step" data-testid="replay-step">${t("replay.step_of", { step, total: last })}${deals.length > 1 ? html` · <span data-testid="replay-deal">${deals[dealAt(deals, step)].title}</span>` : null}</span>
      ${replay.over
        ? html`<label class="option">${t("replay.view_of")}
            <select value=${String(replay.seat)} onChange=${(/** @type {SelectChange} */ e) => setSeat(Number(e.target.value))}>
              ${players.map((p) => html`<option value=${String(p.seat)}>${nameOf(p.seat)}</option>`)}
            </select></label>
            <label class="option check"><input type="checkbox" checked=${full} onChange=${(/** @type {InputChange} */ e) => setFull(e.target.checked)} />
              ${t("replay.all_hands")}</label>`
        : null}
      ${error ? html`<span class="error-text" role="alert">${error}</span>` : null}
      <span class="replay-action" data-testid="replay-action">${current.action ? `${nameOf(/** @type {Seat} an action has its actor */ (current.seat))}: ${describeAction(current.action, game)}` : t("replay.start")}</span>
    </div>
    <div class="table-layout replay-layout"><main class="felt replay-felt">
      <${Board} key=${`replay-${replay.seat}`} state=${state} controller=${idle} nameOf=${nameOf} />
    </main>
    <${MoveList} steps=${replay.steps} deals=${deals} step=${step} game=${game} nameOf=${nameOf} seats=${players.map((p) => p.seat)} onPick=${(/** @type {number} */ i) => { setPlaying(false); setStep(i); }} /></div>
  </div>`;
}
