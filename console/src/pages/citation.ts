// Pieces of the citation panel: numbers, the verdict symbol, the source with its evidence span.

import { h } from "../dom";

export const pct = (x: number | null | undefined): string =>
  x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`;
export const num = (x: unknown): string => (typeof x === "number" ? x.toFixed(3) : "—");

export function symbol(label: string): string {
  return ({ supported: "✓", weak: "~", unsupported: "?", contradicted: "✗", unverifiable: "∅", unresolvable: "∅" } as Record<string, string>)[label] ?? "·";
}

export function sourceWithEvidence(text: string, ev: { start: number | null; end: number | null } | undefined): HTMLElement {
  const box = h("div", { class: "source-text" });
  if (!ev || ev.start === null || ev.end === null || ev.start < 0 || ev.end > text.length || ev.start >= ev.end) {
    box.append(text, h("p", { class: "muted small" }, "(no evidence span located)"));
    return box;
  }
  box.append(text.slice(0, ev.start), h("mark", { class: "evidence", id: "evidence" }, text.slice(ev.start, ev.end)), text.slice(ev.end));
  return box;
}

export function compactRaw(raw: Record<string, unknown> | undefined): string {
  if (!raw) return "";
  return Object.entries(raw)
    .filter(([, v]) => v !== null && v !== "" && !(Array.isArray(v) && !v.length))
    .map(([k, v]) => `${k}=${typeof v === "number" ? (v as number).toFixed(3) : Array.isArray(v) ? v.join(",") : String(v)}`)
    .join(" · ");
}
