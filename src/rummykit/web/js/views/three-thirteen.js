// The Three-Thirteen table: the round and its wild rank, the other players with their
// last turns, stock and discard pile, whoever went out with their melds, your hand.

import { html, useEffect, useLayoutEffect, useRef, useState } from "../html.js";
import { t } from "../i18n.js";
import { CardSvg } from "../card-svg.js";
import { cardText, parseCard, rankText } from "../cards.js";
import { indexLegal } from "../legal.js";
import { lastTurns } from "../model.js";
import { Dialog, waitingFor } from "./common.js";
import { PlayerPlate } from "./player-plate.js";
import { Hand } from "./hand.js";
import { ScrollX } from "./scroll-x.js";
import { HintBubble, HintButton, hintsAllowed } from "./hint.js";
import { SortButtons, useHandState } from "./hand-state.js";
import { MeldView } from "./meld-view.js";
import { Stack } from "./stack.js";
import { SCALES, fitStyle, useFit } from "./fit.js";
import { useKeys } from "../keys.js";
import { ArrangementPanel, CardGroups } from "./arrangement.js";

/**
 * @import { Card, Seat, ThreeThirteenHandResult } from "../protocol-types"
 * @import { LastTurn, ThirteenView } from "../model.js"
 * @import { SeatHolder } from "./common.js"
 * @import { BoardController, BoardState } from "../table-controller.js"
 */
/** @typedef {(seat: Seat) => string} NameOf */
/** @typedef {(name: Card) => boolean} IsWild */

/**
 * Whether a card is wild this round (a joker, or of the round's wild rank).
 * @param {ThirteenView} view
 * @returns {IsWild}
 */
function wildTest(view) {
  return (name) => {
    const card = parseCard(name);
    return card.joker || card.rank === view.wildRank;
  };
}

/**
 * A player's latest turn in words, or the card just taken while it is their turn.
 * @param {{ turn: LastTurn | null, pendingTake: Card | null, live: boolean }} props
 */
function LastTurn({ turn, pendingTake, live }) {
  if (pendingTake && live) {
    return html`<span class="last-turn">${t("thirteen.took_now", { card: cardText(pendingTake) })}</span>`;
  }
  if (!turn) return html`<span class="last-turn muted">${t("thirteen.no_turn_yet")}</span>`;
  const took = turn.took ? t("thirteen.took", { card: cardText(turn.took) }) : t("thirteen.drew");
  const gave = turn.out
    ? t("thirteen.went_out_with", { card: cardText(turn.discarded) })
    : t("thirteen.discarded", { card: cardText(turn.discarded) });
  return html`<span class="last-turn">${took} · ${gave}</span>`;
}

/**
 * @param {{ state: BoardState<ThirteenView>, seat: Seat,
 *   turns: { last: (LastTurn | null)[], pendingTake: (Card | null)[] }, isWild: IsWild }} props
 */
function Opponent({ state, seat, turns, isWild }) {
  const { view } = state;
  const known = view.knownCards[seat] || [];
  const live = view.currentPlayer === seat;
  return html`<div class="opponent" data-seat=${seat}>
    <${PlayerPlate} state=${state} seat=${seat} compact=${view.numPlayers > 2} short=${view.numPlayers > 2} />
    <div class="opponent-hand">
      ${state.revealed?.[seat]
        ? html`<span class="revealed-hand">${state.revealed[seat].map((name, i) => html`<span class="card known" key=${i} data-card=${name}><${CardSvg} name=${name} wild=${isWild(name)} /></span>`)}</span>`
        : Array.from({ length: Math.min(view.handSizes[seat] || 0, 14) }, (_, i) => html`<span class="card mini-back" key=${i}><${CardSvg} back /></span>`)}
    </div>
    <${LastTurn} turn=${turns.last[seat]} pendingTake=${turns.pendingTake[seat]} live=${live} />
    ${known.length
      ? html`<div class="known-cards" title=${t("thirteen.known_cards")}>
          <span class="muted">${t("thirteen.holds")}</span>
          ${known.map((name, i) => html`<span class="card known" key=${i} data-card=${name}><${CardSvg} name=${name} wild=${isWild(name)} /></span>`)}
        </div>`
      : null}
  </div>`;
}

/**
 * Everyone's arrangement and penalty for one round.
 * @param {{ result: ThreeThirteenHandResult, nameOf: NameOf, wildRank?: number }} props
 */
export function RoundSummary({ result, nameOf, wildRank }) {
  const isWild = (/** @type {Card} */ name) => parseCard(name).joker || parseCard(name).rank === (result.wild_rank ?? wildRank);
  return html`<div class="round-summary">
    ${result.players.map(
      (p) => html`<div class=${p.went_out ? "round-player went-out" : "round-player"} data-seat=${p.player}>
        <div class="round-player-head">
          <strong>${nameOf(p.player)}</strong>
          ${p.went_out ? html`<span class="chip out-chip">${t("thirteen.went_out_chip")}</span>` : null}
          <span class="penalty" data-testid="penalty">${p.deadwood ? `+${p.deadwood}` : "0"}</span>
        </div>
        <${CardGroups} melds=${p.melds.map((cards) => ({ cards }))} unmelded=${p.unmelded} deadwood=${p.deadwood}
          isWild=${isWild} className="round-player-cards" />
      </div>`,
    )}
  </div>`;
}

/**
 * The game-over dialog's last round: everyone's arrangement, then the score table.
 * @param {{ state: BoardState<ThirteenView>, nameOf: NameOf }} props
 */
export function ThirteenLastRound({ state, nameOf }) {
  const last = state.view.results[state.view.results.length - 1];
  if (!last) return null;
  return html`<h3>${t("thirteen.round_over", { round: last.round_number })}</h3>
    <${RoundSummary} result=${last} nameOf=${nameOf} />
    <h3>${t("thirteen.score_table")}</h3><${ThirteenScores} state=${state} nameOf=${nameOf} />`;
}

/**
 * @param {ThreeThirteenHandResult} result
 * @param {Seat} seat
 */
function roundScore(result, seat) {
  const player = result.players[seat];
  return player ? player.deadwood : 0;
}

/**
 * The score table: each round's penalties with running totals, the rounds to come.
 * @param {{ state: BoardState<ThirteenView>, nameOf: NameOf }} props
 */
export function ThirteenScores({ state, nameOf }) {
  const { view } = state;
  const seats = Array.from({ length: view.numPlayers }, (_, i) => i);
  const running = seats.map(() => 0);
  const best = Math.min(...view.totals);
  return html`<div class="scores">
    <${ScrollX} label=${t("table.tab.scores")}><table class="score-table thirteen-scores" data-testid="score-table">
      <thead><tr><th>${t("thirteen.round")}</th>${seats.map((s) => html`<th scope="col">${nameOf(s)}</th>`)}</tr></thead>
      <tbody>
        ${view.results.map((r) => html`<tr data-round=${r.round_number}>
          <td>${r.round_number} <span class="muted">(${rankText(r.wild_rank)})</span></td>
          ${seats.map((s) => {
            running[s] += roundScore(r, s);
            return html`<td class=${r.went_out === s ? "went-out" : ""}>${roundScore(r, s)}<span class="running muted"> ${running[s]}</span></td>`;
          })}
        </tr>`)}
        ${Array.from({ length: Math.max(0, view.lastRound - view.firstRound + 1 - view.results.length) }, (_, i) => {
          const round = view.firstRound + view.results.length + i;
          return html`<tr class=${round === view.roundNumber && !view.gameOver ? "current" : "future"}>
            <td>${round} <span class="muted">(${rankText(Math.min(13, round + 2))})</span></td>${seats.map(() => html`<td></td>`)}</tr>`;
        })}
        <tr class="game-total"><th scope="row">${t("breakdown.totals")}</th>
          ${view.totals.map((s) => html`<td class=${s === best ? "leader" : ""}><strong>${s}</strong></td>`)}</tr>
      </tbody>
    </table><//>
    <p class="muted">${t("thirteen.lowest_wins")}</p>
  </div>`;
}

/**
 * @param {{ result: ThreeThirteenHandResult, state: BoardState<ThirteenView>, nameOf: NameOf,
 *   onClose: () => void }} props
 */
function RoundOverDialog({ result, state, nameOf, onClose }) {
  return html`<${Dialog} title=${t("thirteen.round_over", { round: result.round_number })} onClose=${onClose} className="round-over">
    <${RoundSummary} result=${result} nameOf=${nameOf} />
    <${ThirteenScores} state=${state} nameOf=${nameOf} />
    <div class="actions"><button type="button" class="primary" onClick=${onClose}>${t("thirteen.next_round")}</button></div>
  <//>`;
}

/**
 * What the player is asked to do (or whose turn it is).
 * @param {ThirteenView} view
 * @param {Seat | null} seat
 * @param {boolean} myTurn
 * @param {Card[]} selected
 * @param {boolean} canOut
 * @param {NameOf} nameOf
 * @param {SeatHolder[]} players
 * @param {boolean} [readOnly]
 * @returns {string}
 */
function prompt(view, seat, myTurn, selected, canOut, nameOf, players, readOnly = false) {
  if (view.gameOver) return t("table.game_over");
  // a watcher, or a replay: whose turn it is, not what to do (the game is not over: someone has the turn)
  if (seat === null || readOnly) return t("table.watching_turn", { name: nameOf(/** @type {Seat} */ (view.currentPlayer)) });
  if (!myTurn) return waitingFor(players, /** @type {Seat} */ (view.currentPlayer));
  if (view.phase === "draw") return view.wentOut !== null ? t("thirteen.prompt_last_turn") : t("thirteen.prompt_draw");
  if (canOut) return t("thirteen.prompt_can_out");
  return selected.length === 1 ? t("thirteen.prompt_one") : t("thirteen.prompt_discard");
}

/**
 * The Three-Thirteen table for `state`'s seat (a watcher sees seat 0's place, without a hand).
 * @param {{ state: BoardState<ThirteenView>, controller: BoardController, nameOf: NameOf }} props
 */
export function ThirteenBoard({ state, controller, nameOf }) {
  const { view, seat } = state;
  const me = seat ?? 0;
  const myTurn = seat !== null && view.currentPlayer === seat && !view.gameOver && !state.readOnly;
  const hand = useHandState(view.hand, `${view.roundNumber}/${view.turn}/${view.phase}`, state.errors.at(-1)?.id ?? null);
  const index = indexLegal(myTurn ? state.legal : []);
  const isWild = wildTest(view);
  const selected = hand.selectedNames;
  const drawing = myTurn && view.phase === "draw";
  const discarding = myTurn && view.phase === "play";
  const canDraw = drawing && index.draw;
  const canTake = drawing && index.take;
  const canDiscard = discarding && selected.length === 1;
  const outCards = [...index.outs.keys()];
  const canOutNow = discarding && outCards.length > 0;
  const outAction = selected.length === 1 ? index.outs.get(selected[0]) : null;
  const turns = lastTurns(view.discardHistory, view.numPlayers);
  const others = Array.from({ length: view.numPlayers - 1 }, (_, i) => (me + 1 + i) % view.numPlayers);
  const top = view.discardPile[view.discardPile.length - 1];

  const seen = useRef(view.results.length);
  const [shownResult, setShownResult] = useState(/** @type {ThreeThirteenHandResult | null} */ (null));
  useEffect(() => {
    if (view.results.length > seen.current && !view.gameOver && !state.readOnly) setShownResult(view.results[view.results.length - 1]);
    seen.current = view.results.length;
  }, [view.results.length]);

  const act = (/** @type {string} */ action) => controller.act(action) && hand.sent();
  const draw = () => canDraw && act("draw");
  const take = () => {
    if (canTake) act("take");
    else if (canDiscard) discard();
  };
  const discard = (names = selected) => {
    if (!discarding || names.length !== 1) return;
    act(index.discards.get(names[0]) || `discard ${names[0]}`);
  };
  const goOut = () => {
    if (outAction) act(outAction);
    else if (canOutNow) hand.selectNames([outCards[0]]);
  };
  const onDrop = (/** @type {string} */ target, /** @type {string[]} */ keys) => {
    const names = hand.order.filter((e) => keys.includes(e.key)).map((e) => e.name);
    // a card dropped on the pile before drawing: the server's refusal, said at once
    if (target === "discard" && drawing) controller.explain("wrong_phase", { phase: "draw" });
    else if (target === "discard") discard(names);
  };
  const onActivate = (/** @type {string} */ key) => {
    const entry = hand.order.find((e) => e.key === key);
    if (entry) discard([entry.name]);
  };
  useKeys(
    (key) => {
      if (key === "d" && canDraw) return draw(), true;
      if ((key === "p" || key === "t") && canTake) return take(), true;
      if ((key === "x" || key === "delete") && canDiscard) return discard(), true;
      if (key === "o" && canOutNow) return goOut(), true;
      if (key === "h" && myTurn && hintsAllowed(state)) return controller.askHint(), true;
      if (key === "s") return hand.sortBy(hand.mode === "suit" ? "rank" : "suit"), true;
      if (key === "escape") return hand.clear(), true;
      return false;
    },
  );
  const outKeys = canOutNow ? hand.keysFor(outCards.slice(0, 1)) : new Set();
  const hinted = state.hint ? hand.keysFor(state.hint.action.split(/\s+/).slice(1)) : outKeys;
  const wentOutMelds = view.melds;
  const middle = useRef(/** @type {HTMLElement | null} */ (null));
  const scale = useFit(middle, SCALES, { key: String(state.message?.state_number ?? 0) });
  useLayoutEffect(() => {
    // when even small cards do not fit, the melds of whoever went out stay in view
    const zone = middle.current;
    if (zone?.querySelector(".went-out-zone") && zone.scrollHeight > zone.clientHeight + 1) zone.scrollTop = zone.scrollHeight;
  }, [view.wentOut, state.message?.state_number, scale]);

  return html`<div class="board thirteen-board" data-phase=${view.phase} data-my-turn=${String(myTurn)}
      data-state-number=${state.message?.state_number ?? ""}
      data-players=${view.numPlayers}>
    <div class="round-banner" data-testid="round-banner">
      <span>${t("thirteen.round_of", { round: view.roundNumber, last: view.lastRound })}</span>
      <span class="wild-info">${t("thirteen.wild")} <strong data-testid="wild-rank">${rankText(view.wildRank)}</strong>
        <span class="card tiny"><${CardSvg} name=${`${"A23456789TJQK"[view.wildRank - 1]}h`} wild /></span></span>
      ${view.wentOut !== null && !view.gameOver
        ? html`<span class="chip last-turns">${t("thirteen.last_turns", { count: view.lastTurnsRemaining, name: nameOf(view.wentOut) })}</span>`
        : null}
    </div>
    <div class="board-middle" ref=${middle} style=${fitStyle(scale)}>
      <div class=${`zone opponents n${others.length}`}>
        ${others.map((s) => html`<${Opponent} key=${s} state=${state} seat=${s} turns=${turns} isWild=${isWild} />`)}
      </div>
      <div class="zone center-zone">
        <${Stack} count=${view.stockCount} label=${t("table.stock")} testId="stock" enabled=${canDraw} onClick=${draw} />
        <div class="discard-wrap">
          <button type="button" class=${`discard-pile thirteen-pile${canTake || canDiscard ? " can-act" : ""}`} data-testid="discard-pile"
            data-drop="discard" disabled=${!canTake && !canDiscard} onClick=${take}>
            <span class="visually-hidden">${top ? t("thirteen.discard_top", { card: cardText(top) }) : t("thirteen.discard_empty")}</span>
            ${view.discardPile.slice(-5).map(
              (name, i, shown) => html`<span class=${i === shown.length - 1 ? "card pile-card top" : "card pile-card under"}
                key=${view.discardPile.length - shown.length + i} data-card=${name} aria-hidden="true"><${CardSvg} name=${name} wild=${isWild(name)} /></span>`,
            )}
            ${view.discardPile.length === 0 ? html`<span class="card empty-slot"></span>` : null}
          </button>
          <span class="stack-label">${t("thirteen.discard_label")}</span>
        </div>
        ${view.wentOut !== null && wentOutMelds.length
          ? html`<section class="went-out-zone" aria-label=${t("thirteen.went_out_melds", { name: nameOf(view.wentOut) })}>
              <span class="went-out-title">${t("thirteen.went_out_melds", { name: nameOf(view.wentOut) })}</span>
              <div class="melds">${wentOutMelds.map((m) => html`<${MeldView} key=${m.id} meld=${m} isWild=${isWild} />`)}</div>
            </section>`
          : null}
      </div>
    </div>
    <div class="zone my-zone">
      <div class="my-bar">
        <${PlayerPlate} state=${state} seat=${me} />
        <p class="prompt" role="status" data-testid="prompt">${prompt(view, seat, myTurn, selected, canOutNow, nameOf, state.players, state.readOnly)}</p>
        ${seat !== null && !state.readOnly ? html`<${HintBubble} state=${state} controller=${controller} hand=${hand} myTurn=${myTurn} />` : null}
      </div>
      ${seat !== null && !state.readOnly && state.message?.arrangement
        ? html`<${ArrangementPanel} arrangement=${state.message.arrangement} isWild=${isWild} selected=${selected} />`
        : null}
      ${seat !== null && state.readOnly
        ? html`<${Hand} order=${hand.order} selected=${hand.selected} fresh=${new Set()} isWild=${isWild} onToggle=${() => {}}
            onReorder=${hand.reorder} onDrop=${() => {}} />`
        : seat !== null
        ? html`<${Hand} order=${hand.order} selected=${hand.selected} fresh=${hand.fresh} hinted=${hinted}
            isWild=${isWild} onToggle=${hand.toggle} onReorder=${hand.reorder} onDrop=${onDrop} onActivate=${onActivate} />
          <div class="action-bar">
            <${SortButtons} hand=${hand} />
            <span class="spacer"></span>
            ${drawing
              ? html`<button type="button" class="primary" data-action="draw" disabled=${!canDraw} onClick=${draw}>${t("action.draw_button")} <kbd>D</kbd></button>
                  <button type="button" class="primary" data-action="take" disabled=${!canTake} onClick=${take}>${t("action.take_top_button", { card: top ? cardText(top) : "" })} <kbd>P</kbd></button>`
              : html`<button type="button" class=${canDiscard && !outAction ? "primary" : ""} data-action="discard" disabled=${!canDiscard} onClick=${() => discard()}>${t("action.discard_button")} <kbd>X</kbd></button>
                  <button type="button" class=${canOutNow ? "primary go-out" : "go-out"} data-action="out" disabled=${!canOutNow} onClick=${goOut}>
                    ${outAction ? t("action.out_with", { card: cardText(selected[0]) }) : t("action.out_button")} <kbd>O</kbd></button>`}
            <${HintButton} state=${state} controller=${controller} myTurn=${myTurn} />
          </div>`
        : html`<div class="watch-note muted">${t("table.watching")}</div>`}
    </div>
    ${shownResult ? html`<${RoundOverDialog} result=${shownResult} state=${state} nameOf=${nameOf} onClose=${() => setShownResult(null)} />` : null}
  </div>`;
}
