// A small observable store: the app's shared state and the player's saved settings.

/**
 * @import { Catalog, Me } from "./protocol-types"
 * @import { HandMode } from "./hand-order.js"
 */

/**
 * The player's saved choices (kept in localStorage).
 * @typedef {object} Settings
 * @property {string | null} language a code of i18n.js's LANGUAGES, null until chosen
 * @property {boolean} fourColour
 * @property {boolean} sounds
 * @property {boolean} motion cards travel across the table (motion.js)
 * @property {string} pace "slow", "normal", "fast" or "instant"
 * @property {HandMode} handOrder
 */
/**
 * Who the player is (`me`, null before a session; only the name when the server did not
 * say more), the game catalogue (null until it arrives or when the server did not
 * answer), and whether the session was asked yet.
 * @typedef {{ me: (Partial<Me> & { name: string }) | null, catalog: Catalog | null,
 *   checked: boolean }} Session
 */

const SETTINGS_KEY = "rummykit.settings";

/** @type {Settings} */
const DEFAULT_SETTINGS = {
  language: null, // chosen on first load from the browser's languages
  fourColour: false,
  sounds: false,
  motion: true, // cards travel at the pace below (never with the system's reduced motion)
  pace: "normal", // how long other players' moves stay on screen: slow, normal, fast, instant
  handOrder: "suit",
};

/** @returns {Settings} */
function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}");
    return { ...DEFAULT_SETTINGS, ...saved };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

/**
 * A value with subscribers; `set` merges a partial object and notifies.
 * @template {object} T
 */
export class Store {
  /** @param {T} initial */
  constructor(initial) {
    this.state = initial;
    /** @type {Set<(value: T) => void>} */
    this.listeners = new Set();
  }
  /** @returns {T} */
  get() {
    return this.state;
  }
  /** @param {Partial<T>} partial */
  set(partial) {
    this.state = { ...this.state, ...partial };
    for (const listener of this.listeners) listener(this.state);
  }
  /**
   * Call `listener` with each new value; returns the function that stops it.
   * @param {(value: T) => void} listener
   * @returns {() => boolean}
   */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export const settings = new Store(loadSettings());
settings.subscribe((value) => {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(value));
  } catch {
    // private mode: settings last for this visit only
  }
});

/**
 * Milliseconds another player's move stays on screen before the next one is shown.
 * @returns {number}
 */
export function paceMs() {
  return /** @type {Record<string, number>} */ ({ slow: 1600, normal: 900, fast: 400, instant: 0 })[settings.get().pace] ?? 900;
}

/** The player's session ({name, registered} or null) and the game catalogue. */
export const session = new Store(/** @type {Session} */ ({ me: null, catalog: null, checked: false }));
