// Sources: lineage down from a source — every output, in any session of the project, that
// depends on it (the impact of a bad document).

import { gql } from "../api";
import { clear, fmtTime, folded, h } from "../dom";
import { notFound } from "./session";

const LINEAGE = `query Impact($id: ID!) {
  node(id: $id) { id label type content sessionId agentName citationKey timestamp }
  lineage(nodeId: $id, direction: DOWN, depth: 64, limit: 1000) {
    truncated nodes { distance node { id type label sessionId agentName citationKey timestamp } }
  }
}`;
const RECENT = `query Recent { sessions(first: 10) { edges { node { id lastEventAt
  nodes(type: DATA_READ, first: 50) { id label citationKey agentName } } } } }`;

export async function renderSource(el: HTMLElement, id: string): Promise<void> {
  const form = h("form", { class: "filters", role: "search", "aria-label": "Open a source" }, h("div", { class: "field" }, h("label", { for: "source-id" }, "Source node id"), h("input", { id: "source-id", name: "source-id", value: id, placeholder: "e.g. ana-read-1" })), h("div", { class: "field actions" }, h("button", { type: "submit", class: "primary" }, "Show impact")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const v = (form.querySelector("input") as HTMLInputElement).value.trim();
    if (v) location.hash = `#/sources/${encodeURIComponent(v)}`;
  });
  el.append(h("div", { class: "page-head" }, h("h1", {}, "Sources"), h("p", { class: "muted" }, "Which outputs depend on a source? Follow its lineage down through every session of this project.")), h("section", { class: "panel" }, form));
  const body = h("div", {});
  el.append(body);
  if (!id) {
    const data = await gql<{ sessions: { edges: { node: { id: string; lastEventAt: string | null; nodes: { id: string; label: string; citationKey: string | null; agentName: string }[] } }[] } }>(RECENT);
    const rows = data.sessions.edges.flatMap((e) => e.node.nodes.map((n) => ({ ...n, session: e.node.id })));
    body.append(
      h(
        "section",
        { class: "panel" },
        h("h2", {}, "Data read in recent sessions"),
        rows.length
          ? h("table", { class: "grid" }, h("thead", {}, h("tr", {}, ["Source", "Key", "Read by", "Session"].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, rows.map((r) => h("tr", {}, h("th", { scope: "row" }, h("a", { href: `#/sources/${encodeURIComponent(r.id)}` }, r.label)), h("td", {}, r.citationKey ?? "—"), h("td", {}, r.agentName), h("td", {}, h("a", { href: `#/session/${encodeURIComponent(r.session)}` }, r.session))))))
          : h("p", { class: "muted" }, "No data reads in the latest sessions."),
      ),
    );
    return;
  }
  const exists = await gql<{ node: { id: string } | null }>("query Exists($id: ID!) { node(id: $id) { id } }", { id });
  const data = exists.node ? await gql<{ node: any; lineage: { truncated: boolean; nodes: { distance: number; node: any }[] } }>(LINEAGE, { id }) : null;
  if (!data || !data.node) {
    clear(body);
    notFound(body, "Source", id);
    return;
  }
  const outputs = data.lineage.nodes.filter((n) => n.node.type === "FINAL_OUTPUT");
  const bySession = new Map<string, typeof outputs>();
  for (const o of outputs) {
    const s = o.node.sessionId ?? "(no session)";
    bySession.set(s, [...(bySession.get(s) ?? []), o]);
  }
  body.append(
    h(
      "section",
      { class: "panel" },
      h("h2", {}, data.node.label),
      h("p", { class: "facts" }, `${data.node.type ? String(data.node.type).toLowerCase().replace("_", " ") : "placeholder"} · read by ${data.node.agentName || "—"} · ${fmtTime(data.node.timestamp)}${data.node.citationKey ? ` · key ${data.node.citationKey}` : ""} · `, data.node.sessionId ? h("a", { href: `#/session/${encodeURIComponent(data.node.sessionId)}` }, `session ${data.node.sessionId}`) : null),
      data.node.content ? folded(data.node.content) : null,
    ),
    h(
      "section",
      { class: "panel", id: "impact" },
      h("h2", {}, `${outputs.length} output${outputs.length === 1 ? "" : "s"} depend on it, in ${bySession.size} session${bySession.size === 1 ? "" : "s"}`),
      data.lineage.truncated ? h("p", { class: "notice" }, "The walk hit its bound (1,000 nodes / depth 64): there may be more.") : null,
      outputs.length
        ? h("table", { class: "grid" }, h("thead", {}, h("tr", {}, ["Output", "Agent", "Hops", "Session"].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, outputs.map((o) => h("tr", {}, h("th", { scope: "row" }, h("a", { href: `#/output/${encodeURIComponent(o.node.id)}` }, o.node.label)), h("td", {}, o.node.agentName), h("td", { class: "num" }, o.distance), h("td", {}, o.node.sessionId ? h("a", { href: `#/session/${encodeURIComponent(o.node.sessionId)}` }, o.node.sessionId) : "—")))))
        : h("p", { class: "muted" }, "No output depends on this node."),
    ),
  );
}
