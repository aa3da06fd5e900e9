// A small observable store: the app's shared state and the player's saved settings.

const SETTINGS_KEY = "rummykit.settings";

const DEFAULT_SETTINGS = {
  language: null, // chosen on first load from the browser's languages
  fourColour: false,
  sounds: false,
  pace: "normal", // how long other players' moves stay on screen: slow, normal, fast, instant
  handOrder: "suit",
};

function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}");
    return { ...DEFAULT_SETTINGS, ...saved };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

/** A value with subscribers; `set` merges a partial object and notifies. */
export class Store {
  constructor(initial) {
    this.state = initial;
    this.listeners = new Set();
  }
  get() {
    return this.state;
  }
  set(partial) {
    this.state = { ...this.state, ...partial };
    for (const listener of this.listeners) listener(this.state);
  }
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

/** Milliseconds another player's move stays on screen before the next one is shown. */
export function paceMs() {
  return { slow: 1600, normal: 900, fast: 400, instant: 0 }[settings.get().pace] ?? 900;
}

/** The player's session ({name, registered} or null) and the game catalogue. */
export const session = new Store({ me: null, catalog: null, checked: false });
