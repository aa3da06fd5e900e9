// The site's service worker: it shows the Web Push messages the server sends
// (server/notify/push.py: {title, body, path, kind, tag}) and opens their page when one
// is clicked. It caches nothing and handles no request. A message's words are shown as
// text (a notification has no markup), and a page outside this site is never opened.

/// <reference lib="webworker" />
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/**
 * The page of a message on this site, or the site's root.
 * @param {unknown} path
 * @returns {string}
 */
function pageOf(path) {
  const root = new URL("./", worker.registration.scope);
  if (typeof path !== "string" || !path.startsWith("/")) return root.href;
  const page = new URL(path, root);
  return page.origin === root.origin ? page.href : root.href;
}

worker.addEventListener("push", (event) => {
  /** @type {{ title?: unknown, body?: unknown, path?: unknown, tag?: unknown }} */
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === "string" && data.title ? data.title.slice(0, 200) : "rummykit";
  const body = typeof data.body === "string" ? data.body.slice(0, 500) : "";
  event.waitUntil(
    worker.registration.showNotification(title, {
      body,
      tag: typeof data.tag === "string" ? data.tag.slice(0, 100) : undefined,
      icon: "img/favicon.svg",
      data: { page: pageOf(data.path) },
    }),
  );
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const root = new URL("./", worker.registration.scope);
  const stored = event.notification.data?.page;
  const page = typeof stored === "string" && new URL(stored, root).origin === root.origin ? stored : root.href;
  event.waitUntil(
    (async () => {
      const open = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = open.find((client) => new URL(client.url).origin === root.origin);
      if (same && "navigate" in same) {
        await same.focus();
        await same.navigate(page);
        return;
      }
      await worker.clients.openWindow(page);
    })(),
  );
});

worker.addEventListener("install", () => {
  worker.skipWaiting();
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(worker.clients.claim());
});
