// Routes live in the address's hash (#/table/ID?token=...), so every page is index.html.

import { useEffect, useState } from "./html.js";

/**
 * A page's address: its name ("lobby", "table", "replay", "rules", "new"), the path's
 * further parts and the query's parameters.
 * @typedef {{ name: string, args: string[], params: Record<string, string> }} Route
 */

/**
 * The route a hash ("#/table/ID?token=T") names.
 * @param {string} [hash]
 * @returns {Route}
 */
export function parseRoute(hash = location.hash) {
  const raw = hash.replace(/^#\/?/, "");
  const [path, query = ""] = raw.split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const params = Object.fromEntries(new URLSearchParams(query));
  return { name: parts[0] || "lobby", args: parts.slice(1), params };
}

/**
 * Go to a route ("/table/ID" or "#/table/ID").
 * @param {string} path
 */
export function go(path) {
  location.hash = path.startsWith("#") ? path : `#${path}`;
}

/**
 * The hash address of a table (with its invitation token, for a private one).
 * @param {string} id
 * @param {string | null} [token]
 * @returns {string}
 */
export function tableHref(id, token) {
  return `#/table/${encodeURIComponent(id)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
}

/**
 * The hash address to watch a table (with its invitation token, for a private one).
 * @param {string} id
 * @param {string | null} [token]
 * @returns {string}
 */
export function watchHref(id, token) {
  return `${tableHref(id, token)}${token ? "&" : "?"}watch=1`;
}

/**
 * The full address a friend opens to join a private table.
 * @param {string} id
 * @param {string | null} token
 * @returns {string}
 */
export function inviteUrl(id, token) {
  return new URL(`/${tableHref(id, token)}`, location.href).href;
}

/**
 * The current route; the component re-renders when the hash changes.
 * @returns {Route}
 */
export function useRoute() {
  const [route, setRoute] = useState(parseRoute());
  useEffect(() => {
    const onChange = () => setRoute(parseRoute());
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
