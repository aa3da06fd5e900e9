// Playing without picking a name first: a guest name to offer ("Guest 4821"), and the
// session started under a name.

import { t } from "./i18n.js";
import { api } from "./api.js";
import { session } from "./store.js";

/** A guest name to offer or give: the word "Guest" in the player's language and a number. */
export function guestName() {
  return `${t("guest.name")} ${1000 + Math.floor(Math.random() * 9000)}`;
}

/**
 * Start a guest session under `name` and make it the page's player; a session the
 * page's cookie already holds (an account signed in since the page last asked who it
 * is) is kept and becomes the page's player instead: the page never replaces it.
 * @param {string} name
 */
export async function sitAsGuest(name) {
  const who = await api.guest(name, true);
  session.set({ me: (await api.me().catch(() => null)) || who || { name } });
}
