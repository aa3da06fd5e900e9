// Web Push in this browser: the site's own service worker (service-worker.js, which
// shows the server's messages) registered, notifications allowed, and a subscription to
// the browser's push service made with the server's public key (GET /api/notifications
// gives it as `push_key`). What can fail is said by a code the page translates.

/** Why a subscription could not be made: "unsupported", "denied" or "failed". */
export class PushProblem extends Error {
  /** @param {"unsupported" | "denied" | "failed"} code */
  constructor(code) {
    super(code);
    this.code = code;
  }
}

/** @returns {boolean} whether this browser has what Web Push needs */
export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/**
 * The bytes of a base64url text (the server's key).
 * @param {string} text
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function base64UrlBytes(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** @returns {Promise<ServiceWorkerRegistration>} the site's service worker, registered */
export async function siteWorker() {
  if (!pushSupported()) throw new PushProblem("unsupported");
  await navigator.serviceWorker.register("service-worker.js", { scope: "./" });
  return navigator.serviceWorker.ready;
}

/**
 * Subscribe this browser with the server's key: the subscription's JSON for
 * POST /api/notifications/push.
 * @param {string} key
 * @returns {Promise<{ endpoint: string, keys: { p256dh: string, auth: string } }>}
 */
export async function subscribe(key) {
  const registration = await siteWorker();
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new PushProblem("denied");
  try {
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlBytes(key),
    });
    const json = subscription.toJSON();
    const keys = json.keys || {};
    if (!json.endpoint || !keys.p256dh || !keys.auth) throw new PushProblem("failed");
    return { endpoint: json.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
  } catch (error) {
    if (error instanceof PushProblem) throw error;
    throw new PushProblem("failed");
  }
}

/** @returns {Promise<string | null>} this browser's subscription's endpoint, if any */
export async function currentEndpoint() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = registration ? await registration.pushManager.getSubscription() : null;
  return subscription ? subscription.endpoint : null;
}

/** Take this browser's subscription back; its endpoint (null if it had none). */
export async function unsubscribe() {
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = registration ? await registration.pushManager.getSubscription() : null;
  if (!subscription) return null;
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe();
  return endpoint;
}
