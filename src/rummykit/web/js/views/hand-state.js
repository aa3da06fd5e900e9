// The player's hand as a board works it: its order (by suit, by rank or the player's
// own), the cards selected and those just received (useHandState), and the buttons that
// sort it.

import { html, useEffect, useRef, useState } from "../html.js";
import { t } from "../i18n.js";
import { settings } from "../store.js";
import { useStore } from "../hooks.js";
import { moveTo, reconcile, sortOrder } from "../hand-order.js";

/**
 * @import { Card } from "../protocol-types"
 * @import { HandEntry, HandMode } from "../hand-order.js"
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
  /** The keys of one card of the hand for each of `wanted` (those held). */
  const keysFor = (/** @type {Card[]} */ wanted) => {
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
  };
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
    selectNames: (/** @type {Card[]} */ wanted) => setSelected(keysFor(wanted)),
    keysFor,
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
 * The buttons that put the hand in suit or in rank order.
 * @param {{ hand: HandState }} props
 */
export function SortButtons({ hand }) {
  return html`<div class="sort-buttons" role="group" aria-label=${t("table.sort")}>
    <button type="button" class="small" aria-pressed=${String(hand.mode === "suit")} data-sort="suit"
      onClick=${() => hand.sortBy("suit")} title=${t("table.sort_suit")}>♠♥ <span class="label">${t("table.sort_suit")}</span></button>
    <button type="button" class="small" aria-pressed=${String(hand.mode === "rank")} data-sort="rank"
      onClick=${() => hand.sortBy("rank")} title=${t("table.sort_rank")}>7 8 9 <span class="label">${t("table.sort_rank")}</span></button>
  </div>`;
}
