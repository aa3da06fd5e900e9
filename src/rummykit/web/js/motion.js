// Cards travelling across the table: each move's cards fly from where they were to where
// they went, measured before the new state is drawn and after it (FLIP), as clones in a
// layer that takes no input. The pace setting sets how long a flight takes ("instant":
// none); the motion setting and the system's reduced motion turn flights off (the cards
// that arrive fade in instead). Hidden cards travel face down.

import { settings } from "./store.js";
import { eventKind } from "./model.js";

/**
 * @import { Card, Seat } from "./protocol-types"
 * @import { ActedEvent } from "./table-controller.js"
 */
/**
 * The fields of the events that move cards (docs/observations.md), as this module reads them.
 * @typedef {ActedEvent & { card?: Card | null, cards?: Card[] | null, meld_id?: number,
 *   meld?: { cards: Card[] }, discard?: Card, pozzetto?: number }} MovingEvent
 */
/**
 * One card's flight: where it starts (measured before the state changes), how it finds
 * where it lands once the state is drawn, and what it shows on the way.
 * @typedef {object} Flight
 * @property {DOMRect} from
 * @property {boolean} fromCard whether `from` is a card's own box (else a place: a player's plate)
 * @property {() => Element | null} find where it lands: a card, or a place it goes into
 * @property {boolean} back face down all the way
 * @property {Element | null} face the card's face, copied at the start (for a landing place that is no card)
 * @property {string} kind the event's kind
 * @property {Seat | null} player who moved it
 * @property {number} delay ms after the move's first card
 */

/** Flight time (ms) at each pace of other players' moves. */
const TRAVEL_MS = /** @type {Record<string, number>} */ ({ slow: 650, normal: 450, fast: 280, instant: 0 });
const FADE_MS = 180; // the arriving cards' fade when flights are off
const MOST = 24; // of a long pile taken, the top cards travel
const FRAMES = 30; // frames to wait for a landing card to be drawn (a late one still flies from its start)
const STAGGER = 45; // ms between the cards of one move
const EASING = "cubic-bezier(0.25, 0.7, 0.3, 1)";

/** Whether the system asks for less motion. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * How long a card's flight takes (ms); 0 when cards do not travel (the motion setting
 * off, the system's reduced motion, or the "instant" pace).
 * @returns {number}
 */
export function travelMs() {
  const prefs = settings.get();
  if (prefs.motion === false || reducedMotion()) return 0;
  return TRAVEL_MS[prefs.pace] ?? TRAVEL_MS.normal;
}

/** @type {Set<Animation>} */
const running = new Set();

/** The fixed layer the flying cards are drawn in (made on first use). */
function layer() {
  let box = document.querySelector(".motion-layer");
  if (!box) {
    box = document.createElement("div");
    box.className = "motion-layer";
    box.setAttribute("aria-hidden", "true");
    document.body.append(box);
  }
  return box;
}

/** Stop every flight and remove its cards (the table page closes). */
export function stopTravel() {
  for (const animation of [...running]) animation.cancel();
  running.clear();
  for (const card of document.querySelectorAll(".motion-card")) card.remove();
}

/**
 * @param {string} selector
 * @returns {Element | null} the last element that matches
 */
function last(selector) {
  const all = document.querySelectorAll(selector);
  return all.length ? all[all.length - 1] : null;
}

/** @param {Card} name */
const cardSelector = (name) => `[data-card="${CSS.escape(name)}"]`;

/** @param {Seat} seat */
const plate = (seat) => document.querySelector(`.player-plate[data-seat="${seat}"]`);

/**
 * A card of the hand named `name` that no other flight of this move uses: a selected
 * one first (the cards the player sent), else the last.
 * @param {Card} name
 * @param {Set<Element>} used
 * @param {string} [extra] a further class the card should have ("fresh": just received)
 */
function handCard(name, used, extra = "") {
  const all = [...document.querySelectorAll(`.hand .hand-card${extra ? `.${extra}` : ""}${cardSelector(name)}`)].filter((e) => !used.has(e));
  const found = all.find((e) => e.classList.contains("selected")) || all[all.length - 1] || null;
  if (found) used.add(found);
  return found;
}

/**
 * Elements of `selector` inside `scope` showing `name`, one per call, none twice.
 * @param {() => Element | null} scope
 * @param {Card} name
 * @param {Set<Element>} used
 */
function cardIn(scope, name, used) {
  const box = scope();
  if (!box) return null;
  const all = [...box.querySelectorAll(cardSelector(name))].filter((e) => !used.has(e));
  const found = all[all.length - 1] || null;
  if (found) used.add(found);
  return found;
}

/**
 * The face of a card element, to draw on a flying copy.
 * @param {Element | null} element
 */
function faceOf(element) {
  const svg = element?.querySelector("svg.card-svg");
  return svg && !svg.classList.contains("back") ? /** @type {Element} */ (svg.cloneNode(true)) : null;
}

/** A card back as the page draws them, or a plain one. */
function backFace() {
  const svg = document.querySelector("svg.card-svg.back");
  if (svg) return /** @type {Element} */ (svg.cloneNode(true));
  const plain = document.createElement("span");
  plain.className = "motion-plain-back";
  return plain;
}

/**
 * The flights of one state's events, measured on the page as it stands before the state
 * is drawn. `seat`: the viewer's seat (its own hand is on the page).
 * @param {MovingEvent[]} events
 * @param {Seat | null} seat
 * @returns {Flight[]}
 */
function plan(events, seat) {
  /** @type {Flight[]} */
  const flights = [];
  const ownHand = seat !== null && Boolean(document.querySelector(".hand"));
  const usedFrom = new Set();
  const usedTo = new Set();
  let delay = 0;
  /**
   * @param {MovingEvent} event
   * @param {Element | null} source
   * @param {() => Element | null} find
   * @param {boolean} [back]
   */
  const add = (event, source, find, back = false) => {
    if (!source) return;
    const r = source.getBoundingClientRect();
    if (!r.width || !r.height) return;
    flights.push({
      from: r,
      fromCard: source.classList.contains("card"),
      find,
      back,
      face: back ? null : faceOf(source),
      kind: eventKind(event),
      player: event.player ?? null,
      delay,
    });
    delay += STAGGER;
  };
  for (const event of events) {
    const player = event.player ?? null;
    const mine = ownHand && player === seat;
    const toPlayer = (/** @type {Card | null} */ name) =>
      mine && name ? () => handCard(name, usedTo, "fresh") : () => (player === null ? null : plate(player));
    const fromPlayer = (/** @type {Card} */ name) => (mine ? handCard(name, usedFrom) : player === null ? null : plate(player));
    const toPile = (/** @type {Card} */ name) => () => {
      const top = last("[data-testid=discard-pile] .pile-card");
      return top && top.getAttribute("data-card") === name ? top : null;
    };
    /** @param {Card[]} cards @param {number | undefined} id */
    const toMeld = (cards, id) => {
      for (const name of cards) {
        add(event, fromPlayer(name), () => cardIn(() => document.querySelector(`[data-meld="${id}"]`), name, usedTo));
      }
    };
    switch (eventKind(event)) {
      case "stock_drawn":
        add(event, last("[data-testid=stock] .card"), toPlayer(event.card ?? null), !event.card);
        break;
      case "discard_taken":
        add(event, last("[data-testid=discard-pile] .pile-card"), toPlayer(event.card ?? null));
        break;
      case "pile_taken": {
        const pile = [...document.querySelectorAll("[data-testid=discard-pile] .pile-card")].slice(-MOST);
        const names = (event.cards || []).slice(-pile.length);
        pile.forEach((source, i) => add(event, source, toPlayer(names[i] ?? null)));
        break;
      }
      case "discarded":
      case "went_out": {
        const name = /** @type {Card} */ (event.card ?? event.discard);
        if (name) add(event, fromPlayer(name), toPile(name));
        break;
      }
      case "melded":
        toMeld(event.meld?.cards || [], event.meld_id);
        break;
      case "extended":
        toMeld(event.cards || [], event.meld_id);
        break;
      case "pozzetto_taken": {
        const source = document.querySelector(`[data-pozzetto="${event.pozzetto}"] .card`);
        for (let i = 0; i < 3; i += 1) {
          add(event, source, () => (mine ? document.querySelector(".hand") : player === null ? null : plate(player)), true);
        }
        break;
      }
      case "stock_reshuffled": {
        // the discard pile (but its top card) becomes the stock, face down
        const pile = [...document.querySelectorAll("[data-testid=discard-pile] .pile-card")].slice(-6, -1);
        for (const source of pile) add(event, source, () => document.querySelector("[data-testid=stock]"), true);
        break;
      }
      case "pozzetto_to_stock":
        add(event, document.querySelector(`[data-pozzetto="${event.pozzetto}"] .card`), () => document.querySelector("[data-testid=stock]"), true);
        break;
      default:
        break;
    }
  }
  return flights;
}

/**
 * A box of `width` x `height` centred in `box`.
 * @param {DOMRect} box
 * @param {number} width
 * @param {number} height
 */
function centred(box, width, height) {
  return new DOMRect(box.left + (box.width - width) / 2, box.top + (box.height - height) / 2, width, height);
}

/**
 * Send one card on its way from its start to `target`.
 * @param {Flight} flight
 * @param {Element} target
 * @param {number} ms
 */
function fly(flight, target, ms) {
  const landsOnCard = target.classList.contains("card");
  let to = target.getBoundingClientRect();
  let from = flight.from;
  if (!landsOnCard) to = centred(to, from.width * 0.8, from.height * 0.8);
  if (!flight.fromCard) from = centred(from, to.width, to.height);
  if (!to.width || !to.height) return;
  const card = document.createElement("div");
  card.className = "card motion-card";
  card.dataset.motion = flight.kind;
  card.dataset.face = flight.back ? "back" : "up";
  if (flight.player !== null) card.dataset.seat = String(flight.player);
  card.style.cssText = `left:${to.left}px;top:${to.top}px;width:${to.width}px;height:${to.height}px;--card-w:${to.width}px`;
  const face = flight.back ? backFace() : (landsOnCard ? faceOf(target) : null) || flight.face || backFace();
  card.append(face);
  layer().append(card);
  const start = `translate(${from.left - to.left}px, ${from.top - to.top}px) scale(${from.width / to.width}, ${from.height / to.height})`;
  const frames = landsOnCard
    ? [{ transform: start }, { transform: "none" }]
    : [{ transform: start, opacity: 1 }, { transform: "none", opacity: 1, offset: 0.75 }, { transform: "none", opacity: 0 }];
  const animation = card.animate(frames, { duration: ms, delay: flight.delay, easing: EASING, fill: "backwards" });
  running.add(animation);
  // the card it lands as stays hidden until the copy is there
  const hidden = landsOnCard ? target.animate([{ opacity: 0 }, { opacity: 0 }], { duration: ms + flight.delay }) : null;
  const done = () => {
    running.delete(animation);
    card.remove();
  };
  animation.onfinish = done;
  animation.oncancel = () => {
    hidden?.cancel();
    done();
  };
  setTimeout(done, ms + flight.delay + 1000); // never left behind, even if no frame runs
}

/**
 * The cards that arrive fade in (flights off, reduced motion).
 * @param {Flight} flight
 * @param {Element} target
 */
function fade(flight, target) {
  if (target.classList.contains("card")) target.animate([{ opacity: 0 }, { opacity: 1 }], { duration: FADE_MS, easing: "ease-out" });
}

/**
 * Measure the cards `events` move before their state is drawn; returns the function to
 * call once it is drawn, which starts the flights (each waits a few frames for its
 * landing card to be drawn, and is dropped if it never is). Nothing travels when
 * `enabled` is false (the first state, a game catching up) or a new hand was dealt.
 * @param {MovingEvent[]} events
 * @param {Seat | null} seat
 * @param {boolean} enabled
 * @returns {() => void}
 */
export function travel(events, seat, enabled) {
  const idle = () => {};
  if (!enabled || !events.length || typeof document === "undefined" || !document.body.animate) return idle;
  // a new deal redraws the table: nothing is where it went
  if (events.some((e) => eventKind(e) === "hand_dealt")) return idle;
  const ms = travelMs();
  if (ms === 0 && !reducedMotion()) return idle;
  const flights = plan(events, seat);
  if (!flights.length) return idle;
  return () => {
    let pending = flights;
    let frame = 0;
    const step = () => {
      pending = pending.filter((flight) => {
        const target = flight.find();
        if (!target) return true;
        if (ms) fly(flight, target, ms);
        else fade(flight, target);
        return false;
      });
      frame += 1;
      if (pending.length && frame < FRAMES) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  };
}
