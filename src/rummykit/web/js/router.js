// Routes live in the address's hash (#/table/ID?token=...), so every page is index.html.

import { useEffect, useState } from "./html.js";

export function parseRoute(hash = location.hash) {
  const raw = hash.replace(/^#\/?/, "");
  const [path, query = ""] = raw.split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const params = Object.fromEntries(new URLSearchParams(query));
  return { name: parts[0] || "lobby", args: parts.slice(1), params };
}

export function go(path) {
  location.hash = path.startsWith("#") ? path : `#${path}`;
}

export function tableHref(id, token) {
  return `#/table/${encodeURIComponent(id)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
}

/** The full address a friend opens to join a private table. */
export function inviteUrl(id, token, serverUrl) {
  if (serverUrl) return new URL(serverUrl, location.href).href;
  return new URL(`/${tableHref(id, token)}`, location.href).href;
}

export function useRoute() {
  const [route, setRoute] = useState(parseRoute());
  useEffect(() => {
    const onChange = () => setRoute(parseRoute());
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
