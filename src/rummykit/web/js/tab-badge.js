// The browser tab of a table tells a player who looks at another tab that it is their
// turn: the title starts with "Your turn" and the time left on their clock, and the icon
// wears a gold badge (img/favicon-turn.svg: the site's icon with a dot, a file of the
// site's own, as the page's content security policy allows images from the site alone).

const ICON = "img/favicon.svg";
const TURN_ICON = "img/favicon-turn.svg";

/** @returns {HTMLLinkElement} the page's icon link, made when the page has none */
function iconLink() {
  let link = /** @type {HTMLLinkElement | null} */ (document.querySelector("link[rel~='icon']"));
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.type = "image/svg+xml";
    document.head.append(link);
  }
  return link;
}

/**
 * Show or take away the turn badge on the tab's icon.
 * @param {boolean} badge
 */
export function setTabBadge(badge) {
  const link = iconLink();
  const href = badge ? TURN_ICON : ICON;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

// the page's own title, and how many turn-based games wait for the player's move (shown
// before it: "(3) rummykit")
let base = "rummykit";
let waiting = 0;

function showTitle() {
  const title = waiting > 0 ? `(${waiting}) ${base}` : base;
  if (document.title !== title) document.title = title;
}

/**
 * Set the tab's title.
 * @param {string} title
 */
export function setTabTitle(title) {
  base = title;
  showTitle();
}

/**
 * Set how many turn-based games wait for the player's move (the title's count).
 * @param {number} count
 */
export function setTurnCount(count) {
  waiting = count;
  showTitle();
}
