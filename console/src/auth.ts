// The API key lives in this tab's sessionStorage only: never in a URL, a cookie or localStorage.

const KEY = "provgraph.apiKey";

export function getKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function setKey(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function clearKey(): void {
  sessionStorage.removeItem(KEY);
}
