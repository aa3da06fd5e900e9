// The Burraco table: the opponent and their melds above, stock, pozzetti and the whole
// discard pile in the middle, your melds and your hand below.

import { html, useEffect, useRef, useState } from "../html.js";
import { t } from "../i18n.js";
import { CardSvg } from "../card-svg.js";
import { bagKey, parseCard } from "../cards.js";
import { burracoKind, wildStandsFor } from "../model.js";
import { indexLegal } from "../legal.js";
import { runningScore } from "../running-score.js";
import { readCatalog } from "../catalog.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { Dialog, waitingFor } from "./common.js";
import { PlayerPlate } from "./player-plate.js";
import { Hand } from "./hand.js";
import { ScrollX } from "./scroll-x.js";
import { HintBubble, MeldView, SortButtons, Stack, useFitCards, useHandState, useKeys } from "./board-parts.js";
import { BurracoHandMelds } from "./hand-summary.js";

/**
 * @import { BurracoHandResult, BurracoScoreBreakdown, Card, Seat } from "../protocol-types"
 * @import { LegalIndex } from "../legal.js"
 * @import { BurracoMeldView, BurracoView, EitherRules } from "../model.js"
 * @import { SeatHolder } from "./common.js"
 * @import { BoardController, BoardState, HandState } from "./board-parts.js"
 */
/** @typedef {(seat: Seat) => string} NameOf */

const isBurracoWild = (/** @type {Card} */ name) => {
  const card = parseCard(name);
  return card.joker || card.rank === 2;
};

/** @param {{ meld: BurracoMeldView }} props */
function BurracoBadge({ meld }) {
  const kind = burracoKind(meld);
  if (!kind) return null;
  return html`<span class=${`burraco-badge ${kind}`}>${t(`burraco.${kind}`)}</span>`;
}

/**
 * One player's melds; the player's own accept the selected cards (a click or a drop).
 * @param {{ melds: BurracoMeldView[], mine: boolean, hand: HandState, index: LegalIndex,
 *   onExtend?: (id: number) => void, label: string, owner: Seat }} props
 */
function Melds({ melds, mine, hand, index, onExtend, label, owner }) {
  const selectedBag = bagKey(hand.selectedNames);
  const zone = useFitCards(melds.map((m) => `${m.id}:${m.cards.length}`).join());
  return html`<section ref=${zone} class=${`melds ${mine ? "my-melds" : "their-melds"}`} aria-label=${label}
      data-drop=${mine ? "new-meld" : null} data-owner=${owner}>
    ${melds.length === 0 ? html`<span class="melds-empty muted">${mine ? t("burraco.no_melds_yours") : t("burraco.no_melds")}</span>` : null}
    ${melds.map((meld) => {
      const accepts =
        mine && hand.selectedNames.length > 0 && index.extensions.has(`${meld.id}|${selectedBag}`);
      const kind = burracoKind(meld);
      return html`<${MeldView} key=${meld.id} meld=${meld} wildIndex=${meld.wildIndex}
        standsFor=${wildStandsFor(meld)} drop=${mine ? `meld:${meld.id}` : null} highlight=${accepts}
        className=${kind ? `burraco ${kind}` : ""} badge=${html`<${BurracoBadge} meld=${meld} />`}
        onClick=${mine ? () => /** @type {(id: number) => void} */ (onExtend)(meld.id) : null} />`;
    })}
  </section>`;
}

/**
 * The whole discard pile: a click takes it, or discards the one selected card.
 * @param {{ pile: Card[], canTake: boolean, onTake: () => void, canDiscard: boolean,
 *   restricted: Card | null }} props
 */
function DiscardPile({ pile, canTake, onTake, canDiscard, restricted }) {
  return html`<div class="discard-wrap">
    <button type="button" class=${`discard-pile${canTake || canDiscard ? " can-act" : ""}`} data-testid="discard-pile"
        data-drop="discard" disabled=${!canTake && !canDiscard} onClick=${onTake}
        aria-label=${t("burraco.discard_pile", { count: pile.length })}>
      ${pile.length === 0 ? html`<span class="card empty-slot"></span>` : null}
      ${pile.map(
        (name, i) => html`<span class=${`card pile-card${name === restricted && i === pile.length - 1 ? " restricted" : ""}`}
          data-card=${name} key=${i}><${CardSvg} name=${name} wild=${isBurracoWild(name)} /></span>`,
      )}
    </button>
    <span class="stack-label">${t("burraco.pile_label", { count: pile.length })}</span>
  </div>`;
}

/** @param {{ left: number[] }} props which pozzetti (0, 1) are still set aside */
function Pozzetti({ left }) {
  return html`<div class="pozzetti" aria-label=${t("burraco.pozzetti_left", { count: left.length })}>
    ${[0, 1].map(
      (i) => html`<span class=${left.includes(i) ? "pozzetto" : "pozzetto gone"} data-pozzetto=${i}>
        ${left.includes(i) ? html`<span class="card"><${CardSvg} back /></span><span class="pozzetto-count">11</span>` : html`<span class="card empty-slot"></span>`}
      </span>`,
    )}
    <span class="stack-label">${t("burraco.pozzetti", { count: left.length })}</span>
  </div>`;
}

/**
 * One hand's score breakdown for both players (RULES.md 1.7) and the totals.
 * @param {{ result: BurracoHandResult | null | undefined, nameOf: NameOf, rules?: EitherRules }} props
 */
export function BurracoBreakdown({ result, nameOf, rules }) {
  if (!result) return null;
  /** @type {[string, (b: BurracoScoreBreakdown) => number, ((b: BurracoScoreBreakdown) => string)?][]} */
  const rows = [
    ["melded", (b) => b.melded],
    ["in_hand", (b) => -b.in_hand],
    ["burracos", (b) => b.burraco_bonus, (b) => t("breakdown.burraco_counts", { clean: b.clean_burracos, dirty: b.dirty_burracos })],
    ["closing", (b) => b.closing_bonus],
    ["pozzetto_penalty", (b) => -b.pozzetto_penalty],
  ];
  const players = result.breakdown.map((_, i) => i);
  return html`<${ScrollX} label=${t("table.tab.scores")}><table class="score-table breakdown">
    <thead><tr><th></th>${players.map((p) => html`<th scope="col">${nameOf(p)}</th>`)}</tr></thead>
    <tbody>
      ${rows.map(
        ([key, value, extra]) => html`<tr data-row=${key}><th scope="row">${t(`breakdown.${key}`)}</th>
          ${result.breakdown.map((b) => html`<td>${signed(value(b))}${extra ? html` <span class="muted breakdown-detail">${extra(b)}</span>` : null}</td>`)}</tr>`,
      )}
      <tr class="hand-total" data-row="total"><th scope="row">${t("breakdown.hand_total")}</th>
        ${result.scores.map((s) => html`<td><strong>${signed(s)}</strong></td>`)}</tr>
      <tr class="game-total" data-row="totals"><th scope="row">${rules?.mode === "target" ? t("breakdown.totals_target", { target: rules.target }) : t("breakdown.totals")}</th>
        ${result.totals.map((s) => html`<td><strong>${s}</strong></td>`)}</tr>
    </tbody>
  </table><//>
  <p class="muted end-reason">${t(`end.${result.reason}`, { name: result.closer !== null ? nameOf(result.closer) : "" })}</p>`;
}

/**
 * The game-over dialog's last hand: its breakdown and the totals.
 * @param {{ state: BoardState<BurracoView>, nameOf: NameOf }} props
 */
export function BurracoLastHand({ state, nameOf }) {
  const last = state.view.results[state.view.results.length - 1];
  if (!last) return null;
  return html`<h3>${t("burraco.last_hand")}</h3><${BurracoHandMelds} result=${last} nameOf=${nameOf} />
    <${BurracoBreakdown} result=${last} nameOf=${nameOf} rules=${state.view.rules} />`;
}

/** @param {number} value */
function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

/**
 * The side panel's scores: each hand, the totals, the last hand's breakdown.
 * @param {{ state: BoardState<BurracoView>, nameOf: NameOf }} props
 */
export function BurracoScores({ state, nameOf }) {
  const { view } = state;
  const last = view.results[view.results.length - 1];
  return html`<div class="scores">
    <${ScrollX} label=${t("table.tab.scores")}><table class="score-table">
      <thead><tr><th>${t("table.hand_no")}</th>${view.totals.map((_, p) => html`<th scope="col">${nameOf(p)}</th>`)}</tr></thead>
      <tbody>
        ${view.results.map((r) => html`<tr><td>${r.hand_number + 1}</td>${r.scores.map((s) => html`<td>${signed(s)}</td>`)}</tr>`)}
        <tr class="game-total"><th scope="row">${t("breakdown.totals")}</th>${view.totals.map((s) => html`<td><strong>${s}</strong></td>`)}</tr>
      </tbody>
    </table><//>
    <p class="muted">${view.rules.mode === "target" ? t("burraco.mode_target", { target: view.rules.target }) : t("burraco.mode_quick")}</p>
    ${last ? html`<h3>${t("burraco.last_hand")}</h3><${BurracoBreakdown} result=${last} nameOf=${nameOf} rules=${view.rules} />` : null}
  </div>`;
}

/** @param {{ result: BurracoHandResult, nameOf: NameOf, rules: EitherRules, onClose: () => void }} props */
function HandOverDialog({ result, nameOf, rules, onClose }) {
  return html`<${Dialog} title=${t("burraco.hand_over", { n: result.hand_number + 1 })} onClose=${onClose} className="hand-over">
    <${BurracoHandMelds} result=${result} nameOf=${nameOf} />
    <${BurracoBreakdown} result=${result} nameOf=${nameOf} rules=${rules} />
    <div class="actions"><button type="button" class="primary" onClick=${onClose}>${t("burraco.next_hand")}</button></div>
  <//>`;
}

/**
 * What the player is asked to do (or whose turn it is).
 * @param {BurracoView} view
 * @param {Seat | null} seat
 * @param {boolean} myTurn
 * @param {HandState} hand
 * @param {NameOf} nameOf
 * @param {SeatHolder[]} players
 * @param {boolean} [readOnly]
 * @returns {string}
 */
function prompt(view, seat, myTurn, hand, nameOf, players, readOnly = false) {
  if (view.gameOver) return t("table.game_over");
  // a watcher, or a replay: whose turn it is, not what to do (the game is not over: someone has the turn)
  if (seat === null || readOnly) return t("table.watching_turn", { name: nameOf(/** @type {Seat} */ (view.currentPlayer)) });
  if (!myTurn) return waitingFor(players, /** @type {Seat} */ (view.currentPlayer));
  if (view.phase === "draw") return t("burraco.prompt_draw");
  const n = hand.selectedNames.length;
  if (n === 0) return t("burraco.prompt_play");
  if (n === 1) return t("burraco.prompt_one");
  return t("burraco.prompt_many", { count: n });
}

/**
 * The Burraco table for `state`'s seat (a watcher sees seat 0's side, without a hand).
 * @param {{ state: BoardState<BurracoView>, controller: BoardController, nameOf: NameOf }} props
 */
export function BurracoBoard({ state, controller, nameOf }) {
  const { view, seat } = state;
  const me = seat ?? 0;
  const opponent = 1 - me;
  const myTurn = seat !== null && view.currentPlayer === seat && !view.gameOver && !state.readOnly;
  const hand = useHandState(view.hand, `${view.handNumber}/${view.turn}/${view.phase}`, state.errors.at(-1)?.id ?? null);
  const index = indexLegal(myTurn ? state.legal : []);
  const selected = hand.selectedNames;
  const drawing = myTurn && view.phase === "draw";
  const playing = myTurn && view.phase === "play";
  const canDraw = drawing && (!index.known || index.draw);
  const canTake = drawing && (!index.known || index.take);
  const meldAction = index.melds.get(bagKey(selected));
  const canMeld = playing && selected.length >= 3;
  const canDiscard = playing && selected.length === 1;
  const myMelds = view.melds.filter((m) => m.owner === me);
  const theirMelds = view.melds.filter((m) => m.owner === opponent);
  const { catalog } = useStore(session);
  const points = readCatalog(catalog).games.find((g) => g.name === view.game)?.points;
  const score = runningScore(myMelds, view.hand, points);
  // once the game is over, the last hand's score as counted (closing bonus, pozzetto), not
  // the running count of the cards alone
  const lastHand = view.gameOver ? view.results.at(-1) : undefined;

  // end-of-hand dialog (target mode: the game goes on)
  const seen = useRef(view.results.length);
  const [shownResult, setShownResult] = useState(/** @type {BurracoHandResult | null} */ (null));
  useEffect(() => {
    if (view.results.length > seen.current && !view.gameOver && !state.readOnly) setShownResult(view.results[view.results.length - 1]);
    seen.current = view.results.length;
  }, [view.results.length]);

  const act = (/** @type {string} */ action) => {
    if (controller.act(action)) hand.sent();
  };
  const draw = () => canDraw && act("draw");
  const take = () => {
    if (canTake) act("take");
    else if (canDiscard) discard();
  };
  const meld = () => canMeld && act(meldAction || `meld ${selected.join(" ")}`);
  const discard = (names = selected) => {
    if (!playing || names.length !== 1) return;
    act(index.discards.get(names[0]) || `discard ${names[0]}`);
  };
  const extend = (/** @type {number} */ id, names = selected) => {
    if (!playing || !names.length) return;
    act(index.extensions.get(`${id}|${bagKey(names)}`) || `extend ${id} ${names.join(" ")}`);
  };
  const onDrop = (/** @type {string} */ target, /** @type {string[]} */ keys) => {
    const names = hand.order.filter((e) => keys.includes(e.key)).map((e) => e.name);
    if (target === "discard") discard(names);
    else if (target.startsWith("meld:")) extend(Number(target.slice(5)), names);
    else if (target === "new-meld" && playing && names.length >= 3) act(index.melds.get(bagKey(names)) || `meld ${names.join(" ")}`);
  };
  const onActivate = (/** @type {string} */ key) => {
    const entry = hand.order.find((e) => e.key === key);
    if (entry && playing) discard([entry.name]);
  };
  useKeys(
    (key) => {
      if (key === "d" && canDraw) return draw(), true;
      if ((key === "p" || key === "t") && canTake) return take(), true;
      if (key === "m" && canMeld) return meld(), true;
      if ((key === "x" || key === "delete") && canDiscard) return discard(), true;
      if (key === "h" && myTurn) return controller.askHint(), true;
      if (key === "s") return hand.sortBy(hand.mode === "suit" ? "rank" : "suit"), true;
      if (key === "escape") return hand.clear(), true;
      if (/^[0-9]$/.test(key) && playing && selected.length) {
        const target = myMelds[Number(key === "0" ? 9 : Number(key) - 1)];
        if (target) return extend(target.id), true;
      }
      return false;
    },
  );

  const hinted = state.hint ? hand.keysFor(state.hint.action.split(/\s+/).slice(1)) : new Set();
  return html`<div class="board burraco-board" data-phase=${view.phase} data-my-turn=${String(myTurn)}
      data-state-number=${state.message?.state_number ?? ""}>
    <div class="zone opponent-zone">
      <${PlayerPlate} state=${state} seat=${opponent}>
        <span class=${view.tookPozzetto[opponent] ? "chip pozzetto-chip taken" : "chip pozzetto-chip"}
          data-testid="opponent-pozzetto">${view.tookPozzetto[opponent] ? t("burraco.pozzetto_taken") : t("burraco.pozzetto_not_taken")}</span>
      <//>
      <div class="opponent-hand" aria-label=${t("table.cards_held", { count: view.handSizes[opponent] })}>
        ${state.revealed?.[opponent]
          ? html`<span class="revealed-hand">${state.revealed[opponent].map((name, i) => html`<span class="card known" key=${i} data-card=${name}><${CardSvg} name=${name} wild=${isBurracoWild(name)} /></span>`)}</span>`
          : Array.from({ length: Math.min(view.handSizes[opponent] || 0, 30) }, (_, i) => html`<span class="card mini-back" key=${i}><${CardSvg} back /></span>`)}
        ${(view.knownCards[opponent] || []).length
          ? html`<span class="known-cards" title=${t("burraco.known_cards")}>
              ${view.knownCards[opponent].map((name, i) => html`<span class="card known" key=${i} data-card=${name}><${CardSvg} name=${name} /></span>`)}
            </span>`
          : null}
      </div>
    </div>
    <${Melds} melds=${theirMelds} mine=${false} hand=${hand} index=${index} owner=${opponent}
      label=${t("burraco.melds_of", { name: nameOf(opponent) })} />
    <div class="zone center-zone">
      <${Stack} count=${view.stockCount} label=${t("table.stock")} testId="stock" enabled=${canDraw} onClick=${draw} />
      <${Pozzetti} left=${view.pozzettiLeft} />
      <${DiscardPile} pile=${view.discardPile} canTake=${canTake} canDiscard=${canDiscard} onTake=${take}
        restricted=${view.restrictedCard} />
    </div>
    <${Melds} melds=${myMelds} mine=${seat !== null} hand=${hand} index=${index} onExtend=${extend} owner=${me}
      label=${seat === null ? t("burraco.melds_of", { name: nameOf(me) }) : t("burraco.your_melds")} />
    <div class="zone my-zone">
      <div class="my-bar">
        <${PlayerPlate} state=${state} seat=${me}>
          <span class=${view.tookPozzetto[me] ? "chip pozzetto-chip taken" : "chip pozzetto-chip"}>${view.tookPozzetto[me] ? t("burraco.pozzetto_taken") : t("burraco.pozzetto_not_taken")}</span>
          ${seat !== null && score
            ? html`<span class="chip running-score" data-testid="running-score"
                title=${lastHand ? null : t("burraco.running_score_help", score)}>
                ${t("burraco.running_score", { score: signed(lastHand ? lastHand.scores[me] : score.total) })}</span>`
            : null}
        <//>
        <p class="prompt" role="status" data-testid="prompt">${prompt(view, seat, myTurn, hand, nameOf, state.players, state.readOnly)}</p>
      </div>
      ${seat !== null && state.readOnly
        ? html`<${Hand} order=${hand.order} selected=${hand.selected} fresh=${new Set()} isWild=${isBurracoWild} onToggle=${() => {}}
            onReorder=${hand.reorder} onDrop=${() => {}} />`
        : seat !== null
        ? html`<${Hand} order=${hand.order} selected=${hand.selected} fresh=${hand.fresh} hinted=${hinted}
            isWild=${isBurracoWild} forbidden=${view.forbiddenDiscard} onToggle=${hand.toggle}
            onReorder=${hand.reorder} onDrop=${onDrop} onActivate=${onActivate} />
          <div class="action-bar">
            <${SortButtons} hand=${hand} />
            <span class="spacer"></span>
            ${drawing
              ? html`<button type="button" class="primary" data-action="draw" disabled=${!canDraw} onClick=${draw}>${t("action.draw_button")} <kbd>D</kbd></button>
                  <button type="button" class="primary" data-action="take" disabled=${!canTake} onClick=${take}><span class="long">${t("action.take_button", { count: view.discardPile.length })}</span><span class="short">${t("action.take_short", { count: view.discardPile.length })}</span> <kbd>P</kbd></button>`
              : html`<button type="button" class=${meldAction ? "primary" : ""} data-action="meld" disabled=${!canMeld} onClick=${meld}>${t("action.meld_button")} <kbd>M</kbd></button>
                  <button type="button" class=${canDiscard ? "primary" : ""} data-action="discard" disabled=${!canDiscard} onClick=${() => discard()}>${t("action.discard_button")} <kbd>X</kbd></button>`}
            <${HintBubble} state=${state} controller=${controller} hand=${hand} myTurn=${myTurn} />
          </div>`
        : html`<div class="watch-note muted">${t("table.watching")}</div>`}
    </div>
    ${shownResult ? html`<${HandOverDialog} result=${shownResult} nameOf=${nameOf} rules=${view.rules} onClose=${() => setShownResult(null)} />` : null}
  </div>`;
}
