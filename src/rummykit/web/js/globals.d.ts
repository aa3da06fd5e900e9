// What the client's modules use of the browser beyond TypeScript's DOM library (types
// only, for `npm run check`; nothing loads this file).

interface Window {
  /** The session and settings stores, for the browser tests (set by app.js). */
  rummykit?: {
    session: import("./store.js").Store<import("./store.js").Session>;
    settings: import("./store.js").Store<import("./store.js").Settings>;
  };
  /** The open table's controller, for the browser tests (set by views/table.js). */
  rummykitTable?: import("./table-controller.js").TableController | null;
}

// A timer id the client has not set yet is null: the HTML standard reads it as 0, which
// names no timer, so clearing it does nothing.
declare function clearTimeout(id: number | null | undefined): void;
declare function clearInterval(id: number | null | undefined): void;
