// Parts both boards use: the hand's state (order, selection, new cards), piles, melds,
// the hint bubble and the sort buttons.

import { html, useEffect, useLayoutEffect, useRef, useState } from "../html.js";
import { has, t } from "../i18n.js";
import { settings } from "../store.js";
import { useStore } from "../hooks.js";
import { CardSvg } from "../card-svg.js";
import { IconBulb } from "../icons.js";
import { cardsText } from "../cards.js";
import { moveTo, reconcile, sortOrder } from "../hand-order.js";
import { actionCards } from "../legal.js";
import { shortcutKey } from "../keys.js";
import { TAKE_MESSAGE } from "../game-words.js";

/**
 * @import { Card, ReasonPhrase } from "../protocol-types"
 * @import { HandEntry, HandMode } from "../hand-order.js"
 * @import { MeldView, TableView } from "../model.js"
 * @import { TableController, TableState } from "../table-controller.js"
 */
/**
 * A table with a state on screen, as a board draws it.
 * @template {TableView} [View=TableView]
 * @typedef {TableState<View> & { view: View }} BoardState
 */
/**
 * What a board asks of the table: to play an action, to ask a hint and to say why a move
 * is not sent (a replay's stand-in does nothing).
 * @typedef {Pick<TableController, "act" | "askHint" | "explain">} BoardController
 */
/** The player's hand as a board works it (useHandState). @typedef {ReturnType<typeof useHandState>} HandState */

/**
 * Order, selection and freshly received cards of the player's hand.  A selection sent
 * as a move is cleared, and comes back if the move is refused (`refusal` changes).
 * @param {Card[]} hand the cards held, as the server lists them
 * @param {string} turnKey changes when the selection should be cleared (a new turn or phase)
 * @param {number | null} [refusal] the latest refusal's id
 */
export function useHandState(hand, turnKey, refusal = null) {
  const prefs = useStore(settings);
  const [mode, setMode] = useState(/** @type {HandMode} */ (prefs.handOrder || "suit"));
  const [order, setOrder] = useState(/** @type {HandEntry[]} */ ([]));
  const [fresh, setFresh] = useState(/** @type {Set<string>} */ (new Set()));
  const [selected, setSelected] = useState(/** @type {Set<string>} */ (new Set()));
  const first = useRef(true);
  const handKey = hand.join(" ");
  useEffect(() => {
    setOrder((previous) => {
      const next = reconcile(previous, hand, mode);
      setFresh(first.current ? new Set() : next.fresh);
      first.current = false;
      setSelected((sel) => new Set([...sel].filter((k) => next.order.some((e) => e.key === k))));
      return next.order;
    });
  }, [handKey]);
  useEffect(() => setSelected(new Set()), [turnKey]);
  const sent = useRef(/** @type {Set<string>} */ (new Set()));
  useEffect(() => {
    if (refusal !== null && sent.current.size) setSelected(new Set([...sent.current].filter((k) => order.some((e) => e.key === k))));
    sent.current = new Set();
  }, [refusal]);
  const names = (/** @type {Set<string>} */ keys) => order.filter((e) => keys.has(e.key)).map((e) => e.name);
  return {
    mode,
    order,
    fresh,
    selected,
    selectedNames: names(selected),
    toggle: (/** @type {string} */ key) =>
      setSelected((sel) => {
        const next = new Set(sel);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
    clear: () => setSelected(new Set()),
    /** The selection went out as a move: clear it, keeping it in case it is refused. */
    sent: () => {
      sent.current = selected;
      setSelected(new Set());
    },
    /** Select one card of the hand for each of `wanted`. */
    selectNames: (/** @type {Card[]} */ wanted) => {
      /** @type {Set<string>} */
      const keys = new Set();
      const left = [...wanted];
      for (const entry of order) {
        const i = left.indexOf(entry.name);
        if (i >= 0) {
          keys.add(entry.key);
          left.splice(i, 1);
        }
      }
      setSelected(keys);
    },
    /** The keys of one card of the hand for each of `wanted` (those held). */
    keysFor: (/** @type {Card[]} */ wanted) => {
      /** @type {Set<string>} */
      const keys = new Set();
      const left = [...wanted];
      for (const entry of order) {
        const i = left.indexOf(entry.name);
        if (i >= 0) {
          keys.add(entry.key);
          left.splice(i, 1);
        }
      }
      return keys;
    },
    sortBy: (/** @type {"suit" | "rank"} */ how) => {
      setMode(how);
      settings.set({ handOrder: how });
      setOrder((o) => sortOrder(o, how));
    },
    reorder: (/** @type {string[]} */ keys, /** @type {number} */ index) => {
      setMode("custom");
      setOrder((o) => moveTo(o, keys, index));
    },
  };
}

/**
 * Shrink the cards of a scrolling zone step by step (its `--fit`, a scale its cards'
 * `--card-w` are multiplied by) until everything in it shows without scrolling, down to
 * `smallest`; measured again whenever `key` changes or the zone is resized.  Returns the
 * ref to put on the zone.
 * @param {unknown} key
 * @param {number} [smallest]
 */
export function useFitCards(key, smallest = 0.6) {
  const ref = useRef(/** @type {HTMLElement | null} */ (null));
  useLayoutEffect(() => {
    const zone = ref.current;
    if (!zone) return undefined;
    let measured = 0;
    const fit = () => {
      zone.style.removeProperty("--fit");
      let scale = 1;
      while (zone.scrollHeight > zone.clientHeight + 1 && scale > smallest) {
        scale = Math.max(smallest, scale * 0.9);
        zone.style.setProperty("--fit", scale.toFixed(3));
      }
    };
    fit();
    const observer = new ResizeObserver(() => {
      const now = zone.clientWidth * 10000 + zone.clientHeight;
      if (now !== measured) fit();
      measured = now;
    });
    observer.observe(zone);
    return () => observer.disconnect();
  }, [key]);
  return ref;
}

/** @param {{ hand: HandState }} props */
export function SortButtons({ hand }) {
  return html`<div class="sort-buttons" role="group" aria-label=${t("table.sort")}>
    <button type="button" class="small" aria-pressed=${String(hand.mode === "suit")} data-sort="suit"
      onClick=${() => hand.sortBy("suit")} title=${t("table.sort_suit")}>♠♥ <span class="label">${t("table.sort_suit")}</span></button>
    <button type="button" class="small" aria-pressed=${String(hand.mode === "rank")} data-sort="rank"
      onClick=${() => hand.sortBy("rank")} title=${t("table.sort_rank")}>7 8 9 <span class="label">${t("table.sort_rank")}</span></button>
  </div>`;
}

/**
 * Face-down stacks: the stock (clickable to draw) and other piles.
 * @param {{ count: number, label: string, onClick?: (() => unknown) | null, enabled?: boolean,
 *   drop?: string | null, testId?: string | null, small?: boolean }} props
 */
export function Stack({ count, label, onClick, enabled = false, drop = null, testId = null, small = false }) {
  const shown = Math.min(3, Math.ceil(count / 15));
  const content = html`
    ${count > 0
      ? Array.from({ length: Math.max(1, shown) }, (_, i) => html`<span class="card stacked" style=${`--n:${i}`}><${CardSvg} back /></span>`)
      : html`<span class="card empty-slot"></span>`}
    <span class="stack-count">${count}</span>`;
  const classes = `stack${enabled ? " can-act" : ""}${small ? " small" : ""}`;
  return html`<div class="stack-wrap">
    ${onClick
      ? html`<button type="button" class=${classes} data-testid=${testId} disabled=${!enabled}
          aria-label=${`${label}: ${count}`} onClick=${onClick} data-drop=${drop}>${content}</button>`
      : html`<div class=${classes} data-testid=${testId} aria-label=${`${label}: ${count}`} role="img">${content}</div>`}
    <span class="stack-label">${label}</span>
  </div>`;
}

/**
 * A meld laid on the table. `standsFor` names what its wild stands for.
 * @param {{ meld: MeldView, wildIndex?: number | null, isWild?: ((name: Card) => boolean) | null,
 *   standsFor?: Card | null, drop?: string | null, highlight?: boolean,
 *   onClick?: (() => unknown) | null, badge?: unknown, className?: string }} props
 */
export function MeldView({ meld, wildIndex = null, isWild = null, standsFor = null, drop = null,
  highlight = false, onClick = null, badge = null, className = "" }) {
  const cards = meld.cards.map((name, i) => {
    const wild = wildIndex === i || (isWild ? isWild(name) : false);
    return html`<span class="card meld-card" data-card=${name} key=${i}>
      <${CardSvg} name=${name} wild=${wild} standsFor=${wildIndex === i ? standsFor : null} />
    </span>`;
  });
  const classes = `meld ${className}${highlight ? " accepts" : ""}`;
  const label = `${t(`meld.${meld.kind}`)}: ${cardsText(meld.cards)}`;
  return onClick
    ? html`<button type="button" class=${classes} data-meld=${meld.id} data-drop=${drop}
        aria-label=${label} onClick=${onClick}>${badge}<span class="meld-cards">${cards}</span></button>`
    : html`<div class=${classes} data-meld=${meld.id} data-drop=${drop} role="group" aria-label=${label}>
        ${badge}<span class="meld-cards">${cards}</span></div>`;
}

/**
 * Whether this table gives hints: the server's `hints` in the state on screen (false
 * while a rated or tournament game is played; absent from an older server: true).
 * @param {TableState} state
 */
export function hintsAllowed(state) {
  return state.message?.hints !== false;
}

/**
 * The hint button: asks the strongest bot for a hint on the player's turn.  Where the
 * table gives no hints (a rated or tournament game), a short line in its place says so.
 * @param {{ state: BoardState, controller: Pick<TableController, "askHint">, myTurn: boolean }} props
 */
export function HintButton({ state, controller, myTurn }) {
  if (!myTurn) return null;
  if (!hintsAllowed(state))
    return html`<span class="hints-off" role="note" data-testid="hints-off">${t("table.hints_off")}</span>`;
  return html`<div class="hint-area">
    <button type="button" class="small hint-button" disabled=${state.hintPending || state.pending}
      onClick=${() => controller.askHint()} title=${t("table.hint_key")}
      aria-label=${state.hintPending ? t("table.thinking") : t("table.hint")}><${IconBulb} /> <span class="long">${state.hintPending ? t("table.thinking") : t("table.hint")}</span></button>
  </div>`;
}

/**
 * The hint once it comes: its move, its reason, and buttons to show its cards and to play
 * it. It takes a place of its own under the player's plate (the melds above give up the
 * height), so it never lies over the meld, the pile or the cards it points at.
 * @param {{ state: BoardState, controller: Pick<TableController, "act" | "dismissHint">,
 *   hand: HandState, myTurn: boolean }} props
 */
export function HintBubble({ state, controller, hand, myTurn }) {
  const hint = state.hint;
  if (!myTurn || !hint || !hintsAllowed(state)) return null;
  const why = hint.reason ? reasonText(hint.reason_phrases, hint.reason, { named: true, game: state.game }) : "";
  return html`<div class="hint-bubble" role="status" data-action=${hint.action}>
    <span class="hint-head"><strong>${describeAction(hint.action, state.game)}</strong>
      <button type="button" class="quiet hint-close" aria-label=${t("common.close")} title=${t("common.close")}
        onClick=${() => controller.dismissHint()}>×</button></span>
    ${why ? html`<span class="hint-reason">${why}</span>` : null}
    <span class="hint-buttons">
      ${actionCards(hint.action).length
        ? html`<button type="button" class="small" onClick=${() => hand.selectNames(actionCards(hint.action))}>${t("table.hint_show")}</button>`
        : null}
      <button type="button" class="small primary" onClick=${() => controller.act(hint.action)}>${t("table.hint_play")}</button>
    </span>
  </div>`;
}

/** An action in the engine's notation said in words ("Meld 7♥ 8♥ 9♥"). */
/**
 * A bot's reason in the player's language, from its phrases ([{code, params}], see
 * docs/protocol.md): each phrase is the message `reason.<code>`, card params written
 * as cards and move params as moves. A first phrase that only names the move is set
 * off by a dash ("draw from the stock — the pile is empty"), the other phrases by
 * semicolons (several of them hold a colon of their own). The server's English
 * `fallback` when a phrase is unknown.
 */
// reason phrases that only name the move (the hint and the review name it already)
const NAMING = new Set(["draw", "draw_stock", "discard", "meld", "add_to_meld", "take_pile", "take_card", "replace_wild"]);

/**
 * @param {ReasonPhrase[] | null | undefined} phrases
 * @param {string} [fallback]
 * @param {{ named?: boolean, game?: string | null }} [options] `named`: leave out a first phrase
 *   that only names the move (the text may then be empty); `game`: the game's name, for the
 *   moves the reason names
 * @returns {string}
 */
export function reasonText(phrases, fallback = "", { named = false, game = null } = {}) {
  if (!Array.isArray(phrases) || phrases.length === 0) return fallback;
  const naming = NAMING.has(phrases[0].code);
  // beside its move (a hint, a review line) a reason that only names the move says nothing
  const said = named && naming ? phrases.slice(1) : phrases;
  const parts = [];
  for (const { code, params = {} } of said) {
    if (!has(`reason.${code}`)) return fallback;
    /** @type {Record<string, unknown>} */
    const shown = {};
    for (const [name, value] of Object.entries(params)) {
      if (name === "action" || name === "usual") shown[name] = describeAction(/** @type {string} a move */ (value), game);
      else if (name === "card" || name === "cards") shown[name] = cardsText([/** @type {Card | Card[]} */ (value)].flat());
      // melds are numbered from 1 on the page, from 0 in the engine
      else if (name === "meld" && typeof value === "number") shown[name] = value + 1;
      else shown[name] = value;
    }
    parts.push(t(`reason.${code}`, shown));
  }
  if (naming && !named && parts.length > 1) return `${parts[0]} — ${parts.slice(1).join("; ")}`;
  return parts.join("; ");
}

/**
 * @template {string | null | undefined} Action
 * @param {Action} action
 * @param {string | null} [game] the game's name: Three-Thirteen's "take" takes only the top card
 * @returns {string | Action} the action itself when it is not a move this page knows
 */
export function describeAction(action, game) {
  const [verb, ...rest] = (action || "").trim().split(/\s+/);
  switch (verb) {
    case "draw":
      return t("action.draw");
    case "take":
      return t(TAKE_MESSAGE[game ?? ""] ?? "action.take");
    case "meld":
      return t("action.meld", { cards: cardsText(rest) });
    case "extend":
      return t("action.extend", { cards: cardsText(rest.slice(1)) });
    case "discard":
      return t("action.discard", { card: cardsText(rest) });
    case "out":
      return t("action.out", { card: cardsText(rest) });
    default:
      return action;
  }
}

/** Keyboard shortcuts while the table has focus (not while typing in a field). The
 * latest handler is always the one called, so a key pressed right after a change acts on
 * the table as it now stands.
 * @param {(key: string, event: KeyboardEvent) => boolean | undefined} handler true when it used the key
 */
export function useKeys(handler) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const onKey = (/** @type {KeyboardEvent} */ event) => {
      const tag = /** @type {HTMLElement | null} */ (event.target)?.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (document.querySelector(".dialog-backdrop")) return;
      if (latest.current(shortcutKey(event), event)) event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
