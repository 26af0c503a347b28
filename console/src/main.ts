// The console shell: hash routes (pasteable URLs), the signed-in key, the error banner.

import { AuthError, ForbiddenError, UnavailableError, gql, onLiveState, resetLive } from "./api";
import { clearKey, getKey } from "./auth";
import { clear, h, main } from "./dom";
import { renderOutput } from "./pages/output";
import { renderSession } from "./pages/session";
import { renderSessions } from "./pages/sessions";
import { renderSignIn } from "./pages/signin";
import { renderSource } from "./pages/source";

export interface Viewer {
  project: string;
  role: string;
  keyId: string | null;
  canRequestVerification: boolean;
}

let viewer: Viewer | null = null;
let cleanup: (() => void)[] = [];

/** Register something to undo when the page changes (subscriptions, timers, graphs). */
export function onLeave(fn: () => void): void {
  cleanup.push(fn);
}

export function currentViewer(): Viewer | null {
  return viewer;
}

export function showBanner(message: string | null, kind: "error" | "warn" = "error"): void {
  const banner = document.getElementById("banner") as HTMLElement;
  if (!message) {
    banner.hidden = true;
    banner.textContent = "";
    return;
  }
  banner.className = `banner ${kind}`;
  banner.textContent = message;
  banner.hidden = false;
}

export function signOut(reason?: string): void {
  clearKey();
  viewer = null;
  resetLive();
  if (reason) sessionStorage.setItem("provgraph.signinReason", reason);
  void route();
}

/** Turn an API failure into the right screen: sign-in for auth, a banner for outages. */
export function handleError(err: unknown, where: HTMLElement = main()): void {
  if (err instanceof AuthError) {
    signOut(`Signed out: ${err.message}. Sign in again with a valid key.`);
    return;
  }
  if (err instanceof UnavailableError) {
    showBanner(`${err.message} The page retries every 5 s and recovers when the service is back.`);
    scheduleRetry();
    return;
  }
  const text = err instanceof ForbiddenError ? `Not allowed: ${err.message}` : String((err as Error)?.message ?? err);
  clear(where);
  where.append(h("div", { class: "panel error-state", role: "alert" }, h("h2", {}, "Something went wrong"), h("p", {}, text)));
}

let retryTimer: number | undefined;
function scheduleRetry(): void {
  if (retryTimer !== undefined) return;
  retryTimer = window.setTimeout(() => {
    retryTimer = undefined;
    void route();
  }, 5000);
}

async function loadViewer(): Promise<Viewer> {
  const data = await gql<{ viewer: Viewer }>("query Viewer { viewer { project role keyId canRequestVerification } }");
  return data.viewer;
}

function renderChrome(): void {
  const nav = document.getElementById("nav") as HTMLElement;
  const who = document.getElementById("who") as HTMLElement;
  clear(nav);
  clear(who);
  if (!viewer) return;
  const here = location.hash;
  const link = (href: string, text: string) =>
    h("a", { href, "aria-current": here.startsWith(href) ? "page" : null }, text);
  nav.append(link("#/sessions", "Sessions"), link("#/sources", "Sources"));
  const live = h("span", { class: "live-dot", id: "live-state", title: "live updates" }, "live");
  onLeave(
    onLiveState((s) => {
      live.className = `live-dot ${s}`;
      live.textContent = s === "live" ? "live" : s === "down" ? "polling" : "connecting";
    }),
  );
  who.append(
    live,
    h("span", { class: "who-project" }, viewer.project),
    h("span", { class: `role role-${viewer.role}` }, viewer.role),
    h("button", { type: "button", class: "link", onclick: () => signOut() }, "Sign out"),
  );
}

export async function route(): Promise<void> {
  for (const fn of cleanup.splice(0)) fn();
  const hash = location.hash || "#/sessions";
  const [, page0, ...rest] = hash.slice(1).split("/");
  const page = page0.split("?")[0];
  const arg = rest.length ? decodeURIComponent(rest.join("/").split("?")[0]) : "";
  // each navigation renders into its own box: a slower, older navigation writes into a detached one
  const el = h("div", { class: "page" });
  const root = main();
  clear(root);
  root.append(el);
  if (!getKey()) {
    viewer = null;
    renderChrome();
    renderSignIn(el);
    return;
  }
  if (page === "signin") {
    location.hash = "#/sessions";
    return;
  }
  try {
    viewer = viewer ?? (await loadViewer());
    showBanner(null);
  } catch (err) {
    renderChrome();
    handleError(err, el);
    return;
  }
  renderChrome();
  try {
    if (page === "session" && arg) await renderSession(el, arg);
    else if (page === "output" && arg) await renderOutput(el, arg);
    else if (page === "sources") await renderSource(el, arg);
    else await renderSessions(el);
  } catch (err) {
    handleError(err, el);
  }
  if (document.activeElement === document.body) root.focus({ preventScroll: true });
}

window.addEventListener("hashchange", () => void route());
// a dropped live socket rejects with a CloseEvent; the live indicator and the polling fallback
// already handle it, so it is not an error of the page
window.addEventListener("unhandledrejection", (event) => {
  if (typeof CloseEvent !== "undefined" && event.reason instanceof CloseEvent) event.preventDefault();
});
if (document.readyState === "loading") window.addEventListener("DOMContentLoaded", () => void route());
else void route();
