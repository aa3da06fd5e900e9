// The Burraco table: the opponent and their melds above, stock, pozzetti and the whole
// discard pile in the middle, your melds and your hand below. At a table of four the
// other three sit above in the order they play (the next opponent, the partner opposite,
// the other opponent), and the melds above and below are each team's, with its pozzetto.

import { html, useEffect, useLayoutEffect, useRef, useState } from "../html.js";
import { t } from "../i18n.js";
import { CardSvg } from "../card-svg.js";
import { bagKey, cardText, parseCard } from "../cards.js";
import { burracoKind, wildStandsFor } from "../model.js";
import { indexLegal } from "../legal.js";
import { runningScore } from "../running-score.js";
import { readCatalog } from "../catalog.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { Dialog, seatShortName, waitingFor } from "./common.js";
import { PlayerPlate } from "./player-plate.js";
import { Hand } from "./hand.js";
import { ScrollX } from "./scroll-x.js";
import { HintBubble, HintButton, hintsAllowed } from "./hint.js";
import { SortButtons, useHandState } from "./hand-state.js";
import { MeldView } from "./meld-view.js";
import { Stack } from "./stack.js";
import { SCALES, fitStyle, useFit } from "./fit.js";
import { useKeys } from "../keys.js";
import { BurracoHandMelds } from "./hand-summary.js";

/**
 * @import { BurracoHandResult, BurracoScoreBreakdown, Card, Seat } from "../protocol-types"
 * @import { LegalIndex } from "../legal.js"
 * @import { BurracoMeldView, BurracoView, EitherRules } from "../model.js"
 * @import { SeatHolder } from "./common.js"
 * @import { BoardController, BoardState } from "../table-controller.js"
 * @import { HandState } from "./hand-state.js"
 * @import { RunningScore } from "../running-score.js"
 */
/** @typedef {(seat: Seat) => string} NameOf */

/**
 * A seat's side: partners share one (seats 0 and 2 against 1 and 3); with two players
 * each player is a side of their own, numbered as their seat.
 * @param {Seat} seat
 */
export const sideOf = (seat) => seat % 2;

/**
 * The partner opposite `seat` at a table of `players`, or null at a table of two.
 * @param {Seat} seat
 * @param {number} players
 * @returns {Seat | null}
 */
export const partnerOf = (seat, players) => (players === 4 ? (seat + 2) % 4 : null);

/**
 * What a side is called: its player, or both partners' names.
 * @param {NameOf} nameOf
 * @param {number} players
 * @returns {NameOf} the name of side 0 or 1
 */
export function sideNames(nameOf, players) {
  if (players !== 4) return nameOf;
  return (side) => t("table.pair_name", { name: nameOf(side), partner: nameOf(side + 2) });
}

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
  const zone = useRef(/** @type {HTMLElement | null} */ (null));
  const scale = useFit(zone, SCALES, { key: melds.map((m) => `${m.id}:${m.cards.length}`).join() });
  // the two sides share the height by how many melds each has (never by the cards'
  // size, which follows the zone's)
  const style = [fitStyle(scale), `flex-grow:${2 + melds.length}`].filter(Boolean).join(";");
  return html`<section ref=${zone} class=${`melds ${mine ? "my-melds" : "their-melds"}`} aria-label=${label}
      data-drop=${mine ? "new-meld" : null} data-owner=${owner} style=${style}>
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

// the share of a pile card left to see under the next one (its rank and suit in the corner)
const PILE_STRIP = 0.38;

/**
 * How many of a pile's newest cards fit one row of `width` pixels, cards of `card`
 * pixels each showing a strip of the next; `more` pixels kept for the button that
 * opens the whole pile when not all of it fits.
 * @param {number} count the pile's cards
 * @param {number} width
 * @param {number} card
 * @param {number} more
 */
export function pileCardsShown(count, width, card, more) {
  if (count <= 1 || card <= 0) return count;
  const fit = (/** @type {number} */ room) => Math.max(1, Math.floor((room - card) / (card * PILE_STRIP)) + 1);
  if (fit(width) >= count) return count;
  return Math.min(count - 1, fit(width - more));
}

/**
 * The discard pile in one row, newest on the right: a click takes it, or discards the one
 * selected card. When the row cannot hold every card, the oldest are gathered under a
 * button that counts them and opens the whole pile to look through (the player is
 * entitled to see all of it).
 * @param {{ pile: Card[], canTake: boolean, onTake: () => void, canDiscard: boolean,
 *   restricted: Card | null }} props
 */
function DiscardPile({ pile, canTake, onTake, canDiscard, restricted }) {
  const wrap = useRef(/** @type {HTMLElement | null} */ (null));
  const [room, setRoom] = useState({ width: 0, card: 0, more: 0 });
  const [open, setOpen] = useState(false);
  useLayoutEffect(() => {
    const box = wrap.current;
    if (!box) return undefined;
    const measure = () => {
      const row = /** @type {HTMLElement | null} */ (box.querySelector(".discard-row"));
      const probe = /** @type {HTMLElement | null} */ (box.querySelector(".card-probe"));
      const pileBox = /** @type {HTMLElement | null} */ (box.querySelector(".discard-pile"));
      if (!row || !probe || !pileBox) return;
      const style = getComputedStyle(pileBox);
      const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      const card = probe.getBoundingClientRect().width;
      const width = Math.floor(box.clientWidth - padding);
      setRoom((old) => (old.width === width && old.card === card ? old : { width, card, more: Math.max(44, card * 0.9) + 6 }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  const shown = room.card ? pileCardsShown(pile.length, room.width, room.card, room.more) : pile.length;
  const hidden = pile.length - shown;
  const first = hidden;
  return html`<div class="discard-wrap" ref=${wrap}>
    <span class="card card-probe" aria-hidden="true"></span>
    <div class="discard-row">
      ${hidden > 0
        ? html`<button type="button" class="pile-all" data-testid="pile-all" aria-haspopup="dialog"
            aria-label=${t("burraco.pile_show_all", { count: pile.length })} title=${t("burraco.pile_show_all", { count: pile.length })}
            onClick=${() => setOpen(true)}><span class="pile-all-count">+${hidden}</span></button>`
        : null}
      <button type="button" class=${`discard-pile${canTake || canDiscard ? " can-act" : ""}`} data-testid="discard-pile"
          data-drop="discard" disabled=${!canTake && !canDiscard} onClick=${onTake}>
        <span class="visually-hidden">${t("burraco.discard_pile", { count: pile.length })}</span>
        ${pile.length === 0 ? html`<span class="card empty-slot"></span>` : null}
        ${pile.slice(first).map(
          (name, i) => html`<span class=${`card pile-card${name === restricted && first + i === pile.length - 1 ? " restricted" : ""}`}
            data-card=${name} key=${first + i} aria-hidden="true"><${CardSvg} name=${name} wild=${isBurracoWild(name)} /></span>`,
        )}
      </button>
    </div>
    <span class="stack-label">${t("burraco.pile_label", { count: pile.length })}</span>
    ${open
      ? html`<${Dialog} title=${t("burraco.pile_all_title", { count: pile.length })} onClose=${() => setOpen(false)} className="whole-pile">
          <p class="muted">${t("burraco.pile_all_order")}</p>
          <ol class="whole-pile-cards">
            ${pile.map((name, i) => html`<li class="card pile-card" data-card=${name} key=${i}
              aria-label=${cardText(name)}><${CardSvg} name=${name} wild=${isBurracoWild(name)} /></li>`)}
          </ol>
          <div class="actions"><button type="button" class="primary" onClick=${() => setOpen(false)}>${t("common.close")}</button></div>
        <//>`
      : null}
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
export function BurracoLastHand({ state, nameOf: seatName }) {
  const last = state.view.results[state.view.results.length - 1];
  if (!last) return null;
  const nameOf = sideNames(seatName, state.view.numPlayers);
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
export function BurracoScores({ state, nameOf: seatName }) {
  const { view } = state;
  const last = view.results[view.results.length - 1];
  const nameOf = sideNames(seatName, view.numPlayers);
  // a seat's total is its side's: one column a side
  const totals = view.totals.slice(0, 2);
  return html`<div class="scores">
    <${ScrollX} label=${t("table.tab.scores")}><table class="score-table">
      <thead><tr><th>${t("table.hand_no")}</th>${totals.map((_, p) => html`<th scope="col">${nameOf(p)}</th>`)}</tr></thead>
      <tbody>
        ${view.results.map((r) => html`<tr><td>${r.hand_number + 1}</td>${r.scores.map((s) => html`<td>${signed(s)}</td>`)}</tr>`)}
        <tr class="game-total"><th scope="row">${t("breakdown.totals")}</th>${totals.map((s) => html`<td><strong>${s}</strong></td>`)}</tr>
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
 * Whether a side has taken its pozzetto.
 * @param {{ taken: boolean, testId?: string }} props
 */
function PozzettoChip({ taken, testId }) {
  return html`<span class=${taken ? "chip pozzetto-chip taken" : "chip pozzetto-chip"} data-testid=${testId ?? null}>
    ${taken ? t("burraco.pozzetto_taken") : t("burraco.pozzetto_not_taken")}</span>`;
}

/**
 * A team's line above its melds at a table of four: the partners' names (the viewer's
 * team as "You & partner"), its pozzetto, taken or not, and what its melds score now
 * (the viewer's team less the cards in the viewer's hand).
 * @param {{ side: number, name: string, taken: boolean, score: RunningScore | null,
 *   mine: boolean, turn: boolean }} props
 */
function TeamBar({ side, name, taken, score, mine, turn }) {
  return html`<div class=${`team-bar${turn ? " has-turn" : ""}`} data-side=${side} data-testid=${mine ? "my-team" : "their-team"}>
    <span class="team-name" data-testid="team-name">${name}</span>
    <span class=${taken ? "chip pozzetto-chip taken" : "chip pozzetto-chip"} data-testid=${mine ? "my-team-pozzetto" : "opponent-pozzetto"}>
      ${taken ? t("burraco.team_pozzetto_taken") : t("burraco.team_pozzetto_not_taken")}</span>
    ${score
      ? html`<span class="chip team-score" data-testid="team-score" title=${t("burraco.team_score_help")}>
          ${mine ? t("burraco.team_score_now", score) : t("burraco.team_score", score)}</span>`
      : null}
  </div>`;
}

/**
 * One of the three others at a table of four: their plate (the partner marked, the
 * cards they hold counted) and the cards everyone saw them take with the pile (a replay
 * that shows every hand: their hand).
 * @param {{ state: BoardState<BurracoView>, seat: Seat, partner: boolean }} props
 */
function OtherSeat({ state, seat, partner }) {
  const { view } = state;
  const known = view.knownCards[seat] || [];
  return html`<div class=${partner ? "opponent partner-seat" : "opponent"} data-seat=${seat}>
    <${PlayerPlate} state=${state} seat=${seat} compact short>
      ${partner ? html`<span class="chip partner-chip">${t("burraco.partner")}</span>` : null}
    <//>
    ${state.revealed?.[seat]
      ? html`<div class="opponent-hand revealed-hand" role="img" aria-label=${t("table.cards_held", { count: view.handSizes[seat] })}>
          ${state.revealed[seat].map((name, i) => html`<span class="card known" key=${i} data-card=${name}><${CardSvg} name=${name} wild=${isBurracoWild(name)} /></span>`)}</div>`
      : null}
    ${known.length
      ? html`<div class="known-cards" title=${t("burraco.known_cards")}>
          ${known.map((name, i) => html`<span class="card known" key=${i} data-card=${name}><${CardSvg} name=${name} /></span>`)}
        </div>`
      : null}
  </div>`;
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
  const players = view.numPlayers;
  const mySide = sideOf(me);
  const theirSide = 1 - mySide;
  const partner = partnerOf(me, players);
  // the others in the order they play after me: at a table of two, the opponent
  const others = Array.from({ length: players - 1 }, (_, i) => (me + 1 + i) % players);
  const opponent = others[0];
  const sideName = sideNames(nameOf, players);
  const myTurn = seat !== null && view.currentPlayer === seat && !view.gameOver && !state.readOnly;
  const hand = useHandState(view.hand, `${view.handNumber}/${view.turn}/${view.phase}`, state.errors.at(-1)?.id ?? null);
  const index = indexLegal(myTurn ? state.legal : []);
  const selected = hand.selectedNames;
  const drawing = myTurn && view.phase === "draw";
  const playing = myTurn && view.phase === "play";
  const canDraw = drawing && index.draw;
  const canTake = drawing && index.take;
  const meldAction = index.melds.get(bagKey(selected));
  const canMeld = playing && selected.length >= 3;
  const canDiscard = playing && selected.length === 1;
  const myMelds = view.melds.filter((m) => m.owner === mySide);
  const theirMelds = view.melds.filter((m) => m.owner === theirSide);
  const { catalog } = useStore(session);
  const points = readCatalog(catalog).games.find((g) => g.name === view.game)?.points;
  const score = runningScore(myMelds, view.hand, points);
  // once the game is over, the last hand's score as counted (closing bonus, pozzetto), not
  // the running count of the cards alone
  const lastHand = view.gameOver ? view.results.at(-1) : undefined;
  // a team of four by its players' names in few words: the viewer's as "You & partner"
  const teamName = (/** @type {number} */ side) => {
    const short = (/** @type {number} */ s) => seatShortName(state.players, /** @type {Seat} */ (s));
    if (seat !== null && side === mySide && partner !== null) return t("burraco.team_you", { partner: short(partner) });
    return t("table.pair_name", { name: short(side), partner: short(side + 2) });
  };

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
    // cards dropped on the pile or a meld before drawing: the server's refusal, said at once
    if (drawing) controller.explain("wrong_phase", { phase: "draw" });
    else if (target === "discard") discard(names);
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
      if (key === "h" && myTurn && hintsAllowed(state)) return controller.askHint(), true;
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
    ${partner !== null
      ? html`<div class="zone opponents n3 burraco-others">
          ${others.map((s) => html`<${OtherSeat} key=${s} state=${state} seat=${s} partner=${s === partner} />`)}
        </div>
        <${TeamBar} side=${theirSide} name=${teamName(theirSide)} taken=${view.tookPozzetto[theirSide]}
          score=${runningScore(theirMelds, [], points)} mine=${false} turn=${sideOf(/** @type {Seat} */ (view.currentPlayer)) === theirSide && !view.gameOver} />`
      : html`<div class="zone opponent-zone">
      <${PlayerPlate} state=${state} seat=${opponent}>
        <${PozzettoChip} taken=${view.tookPozzetto[theirSide]} testId="opponent-pozzetto" />
      <//>
      <div class="opponent-hand" role="img" aria-label=${t("table.cards_held", { count: view.handSizes[opponent] })}>
        ${state.revealed?.[opponent]
          ? html`<span class="revealed-hand">${state.revealed[opponent].map((name, i) => html`<span class="card known" key=${i} data-card=${name}><${CardSvg} name=${name} wild=${isBurracoWild(name)} /></span>`)}</span>`
          : Array.from({ length: Math.min(view.handSizes[opponent] || 0, 30) }, (_, i) => html`<span class="card mini-back" key=${i}><${CardSvg} back /></span>`)}
        ${(view.knownCards[opponent] || []).length
          ? html`<span class="known-cards" title=${t("burraco.known_cards")}>
              ${view.knownCards[opponent].map((name, i) => html`<span class="card known" key=${i} data-card=${name}><${CardSvg} name=${name} /></span>`)}
            </span>`
          : null}
      </div>
    </div>`}
    <${Melds} melds=${theirMelds} mine=${false} hand=${hand} index=${index} owner=${theirSide}
      label=${t("burraco.melds_of", { name: sideName(theirSide) })} />
    <div class="zone center-zone">
      <${Stack} count=${view.stockCount} label=${t("table.stock")} testId="stock" enabled=${canDraw} onClick=${draw} />
      <${Pozzetti} left=${view.pozzettiLeft} />
      <${DiscardPile} pile=${view.discardPile} canTake=${canTake} canDiscard=${canDiscard} onTake=${take}
        restricted=${view.restrictedCard} />
    </div>
    ${partner !== null
      ? html`<${TeamBar} side=${mySide} name=${teamName(mySide)} taken=${view.tookPozzetto[mySide]}
          score=${seat !== null ? score : runningScore(myMelds, [], points)} mine=${seat !== null}
          turn=${sideOf(/** @type {Seat} */ (view.currentPlayer)) === mySide && !view.gameOver} />`
      : null}
    <${Melds} melds=${myMelds} mine=${seat !== null} hand=${hand} index=${index} onExtend=${extend} owner=${mySide}
      label=${seat === null ? t("burraco.melds_of", { name: sideName(mySide) }) : partner !== null ? t("burraco.your_team_melds") : t("burraco.your_melds")} />
    <div class="zone my-zone">
      <div class="my-bar">
        <${PlayerPlate} state=${state} seat=${me}>
          ${partner === null ? html`<${PozzettoChip} taken=${view.tookPozzetto[mySide]} />` : null}
          ${seat !== null && score && partner === null
            ? html`<span class="chip running-score" data-testid="running-score"
                title=${lastHand ? null : t("burraco.running_score_help", score)}>
                ${t("burraco.running_score", { score: signed(lastHand ? lastHand.scores[mySide] : score.total) })}</span>`
            : null}
        <//>
        <p class="prompt" role="status" data-testid="prompt">${prompt(view, seat, myTurn, hand, nameOf, state.players, state.readOnly)}</p>
        ${seat !== null && !state.readOnly ? html`<${HintBubble} state=${state} controller=${controller} hand=${hand} myTurn=${myTurn} />` : null}
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
            <${HintButton} state=${state} controller=${controller} myTurn=${myTurn} />
          </div>`
        : html`<div class="watch-note muted">${t("table.watching")}</div>`}
    </div>
    ${shownResult ? html`<${HandOverDialog} result=${shownResult} nameOf=${sideName} rules=${view.rules} onClose=${() => setShownResult(null)} />` : null}
  </div>`;
}
