// Verdicts are told by text and symbol as well as colour (accessibility).

import { h } from "./dom";

export const VERDICTS = ["supported", "weak", "unsupported", "contradicted", "unverifiable"] as const;
export type Verdict = (typeof VERDICTS)[number];

const SYMBOL: Record<string, string> = {
  supported: "✓",
  weak: "~",
  unsupported: "?",
  contradicted: "✗",
  unverifiable: "∅",
};

export function verdictClass(v: string | null | undefined): string {
  return `v-${(v ?? "none").toLowerCase()}`;
}

export function verdictBadge(v: string | null | undefined, count?: number): HTMLElement {
  const name = (v ?? "not checked").toLowerCase();
  return h(
    "span",
    { class: `badge ${verdictClass(v)}`, title: name },
    h("span", { "aria-hidden": "true" }, SYMBOL[name] ?? "·"),
    " ",
    count === undefined ? name : `${count} ${name}`,
  );
}

/** The worst verdict among several (contradicted > unsupported > weak > unverifiable > supported). */
export function worst(verdicts: (string | null | undefined)[]): string | null {
  const order = ["contradicted", "unsupported", "weak", "unverifiable", "supported"];
  for (const v of order) if (verdicts.includes(v)) return v;
  return null;
}
