// A game step by step (GET /api/tables/{id}/replay): the player's own view while the game
// runs; once it is over any seat's view, or every hand at once.

import { html, useEffect, useState } from "../html.js";
import { t, errorText } from "../i18n.js";
import { api } from "../api.js";
import { readObservation } from "../model.js";
import { NicknameForm, TopBar, seatName } from "./common.js";
import { gameViews } from "../games.js";
import { describeAction } from "./board-parts.js";
import { Store, session } from "../store.js";
import { useStore } from "../hooks.js";

/**
 * @import { Seat } from "../protocol-types"
 * @import { Replay } from "../api.js"
 * @import { BoardState } from "./board-parts.js"
 * @import { InputChange, SelectChange } from "./common.js"
 */

const idle = { act: () => false, askHint: () => {}, chat: () => false, dismissError: () => {}, store: new Store({}) };

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
      .catch((err) => alive && setError(errorText(err.code, err.params, err.message)));
    return () => {
      alive = false;
    };
  }, [tableId, token, seat, full, me]);
  const last = replay ? replay.steps.length - 1 : 0;
  useEffect(() => {
    if (!playing) return undefined;
    if (step >= last) {
      setPlaying(false);
      return undefined;
    }
    const id = setTimeout(() => setStep((s) => Math.min(last, s + 1)), 900);
    return () => clearTimeout(id);
  }, [playing, step, last]);
  useEffect(() => {
    const onKey = (/** @type {KeyboardEvent} */ event) => {
      const tag = /** @type {HTMLElement | null} */ (event.target)?.tagName;
      if (tag === "INPUT" || tag === "SELECT") return;
      if (event.key === "ArrowRight") setStep((s) => Math.min(last, s + 1));
      else if (event.key === "ArrowLeft") setStep((s) => Math.max(0, s - 1));
      else if (event.key === "Home") setStep(0);
      else if (event.key === "End") setStep(last);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [last]);

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
      <button type="button" class="small" onClick=${() => setStep(0)} aria-label=${t("replay.first")}>|◀</button>
      <button type="button" class="small" data-testid="replay-prev" onClick=${() => setStep(Math.max(0, step - 1))} aria-label=${t("replay.previous")}>◀</button>
      <button type="button" class="small" onClick=${() => setPlaying(!playing)} aria-label=${playing ? t("replay.pause") : t("replay.play")}>${playing ? "II" : "▶"}</button>
      <button type="button" class="small" data-testid="replay-next" onClick=${() => setStep(Math.min(last, step + 1))} aria-label=${t("replay.next")}>▶▶</button>
      <button type="button" class="small" onClick=${() => setStep(last)} aria-label=${t("replay.last")}>▶|</button>
      <input type="range" min="0" max=${last} value=${step} aria-label=${t("replay.step")} onInput=${(/** @type {InputChange} */ e) => setStep(Number(e.target.value))} />
      <span class="replay-step" data-testid="replay-step">${t("replay.step_of", { step, total: last })}</span>
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
    <div class="table-layout"><main class="felt replay-felt">
      <${Board} key=${`replay-${replay.seat}`} state=${state} controller=${idle} nameOf=${nameOf} />
    </main></div>
  </div>`;
}
