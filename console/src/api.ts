// The console's only channel to provgraph: the public GraphQL API (HTTP POST + WebSocket).

import { createClient, type Client } from "graphql-ws";
import { getKey } from "./auth";

export class AuthError extends Error {}
export class ForbiddenError extends Error {}
export class UnavailableError extends Error {
  constructor(message: string, readonly detail: string = "") {
    super(message);
  }
}

function unavailable(status: number, detail: string): UnavailableError {
  const what = status === 503 ? "the API is up but its graph store or broker is unavailable" : "the API failed";
  return new UnavailableError(`The provgraph API answered ${status}: ${what}.`, detail);
}
export class GraphQLErrors extends Error {}

export type Vars = Record<string, unknown>;

export async function gql<T>(query: string, variables: Vars = {}): Promise<T> {
  const key = getKey();
  let response: Response;
  try {
    response = await fetch("/graphql", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ query, variables }),
      cache: "no-store",
    });
  } catch {
    throw new UnavailableError("The provgraph API cannot be reached (network error). Retrying…");
  }
  const body = await response.json().catch(() => null);
  const message: string = body?.error?.message ?? body?.detail ?? response.statusText;
  if (response.status === 401) throw new AuthError(message || "API key not recognised");
  if (response.status === 403) throw new ForbiddenError(message || "forbidden");
  if (response.status >= 500) throw unavailable(response.status, message);
  if (!body) throw new UnavailableError(`Unexpected answer from the API (${response.status})`);
  if (body.errors?.length) {
    const text = body.errors.map((e: { message: string }) => e.message).join("; ");
    if (/unavailable|retry/i.test(text)) throw new UnavailableError("The graph store is unavailable.", text);
    if (/forbidden/i.test(text)) throw new ForbiddenError(text);
    if (/not recognised|missing API key/i.test(text)) throw new AuthError(text);
    throw new GraphQLErrors(text);
  }
  return body.data as T;
}

/** GET a REST export (the only REST the console uses); null on 404. */
export async function restExport<T>(path: string): Promise<T | null> {
  const key = getKey();
  let response: Response;
  try {
    response = await fetch(path, { headers: key ? { Authorization: `Bearer ${key}` } : {}, cache: "no-store" });
  } catch {
    throw new UnavailableError("The provgraph API cannot be reached (network error). Retrying…");
  }
  if (response.status === 404) return null;
  const body = await response.json().catch(() => null);
  const message: string = body?.error?.message ?? response.statusText;
  if (response.status === 401) throw new AuthError(message);
  if (response.status === 403) throw new ForbiddenError(message);
  if (response.status >= 500) throw unavailable(response.status, message);
  if (!response.ok || !body) throw new GraphQLErrors(`export failed (${response.status}): ${message}`);
  return body as T;
}

let client: Client | null = null;
let liveState: "connecting" | "live" | "down" = "connecting";
const stateListeners = new Set<(s: typeof liveState) => void>();

export function onLiveState(fn: (s: typeof liveState) => void): () => void {
  stateListeners.add(fn);
  fn(liveState);
  return () => stateListeners.delete(fn);
}

function setLive(s: typeof liveState): void {
  liveState = s;
  for (const fn of stateListeners) fn(s);
}

function wsClient(): Client {
  if (client) return client;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`;
  client = createClient({
    url,
    connectionParams: () => ({ authorization: `Bearer ${getKey() ?? ""}` }),
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: async (retries) => new Promise((r) => setTimeout(r, Math.min(30000, 2000 * 2 ** retries))),
    on: {
      connected: () => setLive("live"),
      closed: () => setLive("down"),
      error: () => setLive("down"),
    },
  });
  return client;
}

export function resetLive(): void {
  client?.dispose();
  client = null;
  setLive("connecting");
}

/**
 * Subscribe over WebSocket; while the socket is down, `fallback` runs every `pollMs` (≥ 5 s).
 * Returns the unsubscribe function.
 */
export function subscribe<T>(
  query: string,
  variables: Vars,
  onData: (data: T) => void,
  fallback?: () => void,
  pollMs = 10000,
): () => void {
  const dispose = wsClient().subscribe<T>(
    { query, variables },
    {
      next: (msg) => msg.data && onData(msg.data as T),
      error: () => undefined,
      complete: () => undefined,
    },
  );
  let timer: number | undefined;
  const stop = onLiveState((s) => {
    if (s === "down" && fallback && timer === undefined) {
      timer = window.setInterval(fallback, Math.max(5000, pollMs));
    } else if (s === "live" && timer !== undefined) {
      window.clearInterval(timer);
      timer = undefined;
    }
  });
  return () => {
    dispose();
    stop();
    if (timer !== undefined) window.clearInterval(timer);
  };
}
