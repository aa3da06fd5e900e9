// A finished (or running) game step by step: the views the server gives for each action
// (the player's own view, or every hand once the game is over), with the move made.

import { html, useEffect, useState } from "../html.js";
import { t, refusalText } from "../i18n.js";
import { api } from "../api.js";
import { readObservation } from "../model.js";
import { TopBar, seatName } from "./common.js";
import { BurracoBoard } from "./burraco.js";
import { ThirteenBoard } from "./three-thirteen.js";
import { describeAction } from "./board-parts.js";
import { FairDeal } from "./fair-deal.js";
import { Store } from "../store.js";

const BOARDS = { burraco: BurracoBoard, "three-thirteen": ThirteenBoard };

const idle = { act: () => false, askHint: () => {}, chat: () => false, dismissError: () => {}, store: new Store({}) };

function stepsOf(record) {
  const views = record.views || record.observations || record.steps || [];
  return views.map((entry) => (entry && entry.observation ? entry : { observation: entry }));
}

export function ReplayPage({ tableId }) {
  const [record, setRecord] = useState(null);
  const [error, setError] = useState(null);
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    api
      .record(tableId)
      .then((data) => {
        setRecord(data);
        setStep(0);
      })
      .catch((err) => setError(refusalText(err.code, err.params, err.message)));
  }, [tableId]);
  const steps = record ? stepsOf(record) : [];
  const last = Math.max(0, steps.length - 1);
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
    const onKey = (event) => {
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

  if (error) {
    return html`<${TopBar} title=${t("replay.title")} /><main class="replay"><p class="error-text">${error}</p><a href="#/">${t("nav.lobby")}</a></main>`;
  }
  if (!record) return html`<${TopBar} title=${t("replay.title")} /><main class="replay"><p class="muted">${t("common.loading")}</p></main>`;
  const game = record.game;
  const Board = BOARDS[game];
  const actions = record.actions || [];
  const current = steps[step];
  const players = record.players || [];
  const nameOf = (seat) => seatName(players, seat);
  let body = html`<p class="muted">${t("replay.no_views")}</p>`;
  if (current && Board) {
    const view = readObservation(game, current.observation);
    const state = {
      view,
      game,
      seat: current.seat ?? record.seat ?? view.player ?? null,
      players,
      legal: [],
      turn: null,
      chat: [],
      log: [],
      errors: [],
      hint: null,
      message: null,
      status: "open",
    };
    body = html`<div class="felt replay-felt"><${Board} key=${"replay"} state=${state} controller=${idle} nameOf=${nameOf} /></div>`;
  }
  const actionText = step > 0 ? actions[step - 1] : null;
  const actor = current?.actor ?? current?.player ?? null;
  return html`<div class="replay-page">
    <${TopBar} title=${`${t("replay.title")} · ${t(`game.${game}`)}`} />
    <div class="replay-controls" role="group" aria-label=${t("replay.controls")}>
      <button type="button" class="small" onClick=${() => setStep(0)} aria-label=${t("replay.first")}>⏮</button>
      <button type="button" class="small" data-testid="replay-prev" onClick=${() => setStep(Math.max(0, step - 1))} aria-label=${t("replay.previous")}>◀</button>
      <button type="button" class="small" onClick=${() => setPlaying(!playing)} aria-label=${playing ? t("replay.pause") : t("replay.play")}>${playing ? "⏸" : "▶"}</button>
      <button type="button" class="small" data-testid="replay-next" onClick=${() => setStep(Math.min(last, step + 1))} aria-label=${t("replay.next")}>▶▶</button>
      <button type="button" class="small" onClick=${() => setStep(last)} aria-label=${t("replay.last")}>⏭</button>
      <input type="range" min="0" max=${last} value=${step} aria-label=${t("replay.step")} onInput=${(e) => setStep(Number(e.target.value))} />
      <span class="replay-step" data-testid="replay-step">${t("replay.step_of", { step, total: last })}</span>
      <span class="replay-action">${actionText ? `${actor !== null ? `${nameOf(actor)}: ` : ""}${describeAction(actionText)}` : t("replay.start")}</span>
    </div>
    ${body}
    ${record.seed !== undefined || record.commitment
      ? html`<div class="replay-fair panel"><${FairDeal} seed=${record.seed_text ?? record.seed ?? null} nonce=${record.nonce ?? null} commitment=${record.commitment ?? null} tableId=${tableId} /></div>`
      : null}
  </div>`;
}
