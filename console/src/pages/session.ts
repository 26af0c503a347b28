// Session: the multi-agent graph (or its timeline), a node detail panel, and its outputs.

import { gql, restExport, subscribe } from "../api";
import { announce, append, clear, fmtTime, folded, h } from "../dom";
import { renderGraph, type GEdge, type GNode, type GraphView } from "../graph";
import { handleError, onLeave, route } from "../main";
import { renderTimeline } from "../timeline";
import { verdictBadge } from "../verdicts";

const SESSION = `query Session($id: ID!) {
  session(id: $id) {
    id nodeCount runCount agentNames firstEventAt lastEventAt finalOutputIds
    agents { name nodeCount delegatedBy runIds }
    verdictCounts { verdict count }
    finalOutputs { id label agentName citationKey }
  }
}`;
const NODE = `query Node($id: ID!) { node(id: $id) {
  id type label agentName runId timestamp sessionId content citationKey data isPlaceholder
  status error { type message }
  parents { id label type } children { id label type } } }`;

interface SessionData {
  id: string;
  nodeCount: number;
  runCount: number;
  agentNames: string[];
  firstEventAt: string | null;
  lastEventAt: string | null;
  finalOutputIds: string[];
  agents: { name: string; nodeCount: number; delegatedBy: string[]; runIds: string[] }[];
  verdictCounts: { verdict: string; count: number }[];
  finalOutputs: { id: string; label: string; agentName: string; citationKey: string | null }[];
  nodes: GNode[];
}

interface ExportNode {
  id: string;
  type: string | null;
  label: string;
  agent_name: string;
  run_id: string;
  timestamp: string;
  session_id?: string;
  citation_key?: string;
  placeholder?: boolean;
  status?: string;
}

/**
 * The session's summary (GraphQL) and its whole graph in one request (the JSON export):
 * paging GraphQL nodes would re-read the session graph on the server once per page.
 */
export async function loadSessionGraph(id: string): Promise<{ session: SessionData; edges: GEdge[] } | null> {
  const path = `/v1/sessions/${encodeURIComponent(id)}/export?format=json`;
  const [summary, graph] = await Promise.all([
    gql<{ session: Omit<SessionData, "nodes"> | null }>(SESSION, { id }),
    restExport<{ nodes: ExportNode[]; edges: { source: string; target: string; label: string }[] }>(path),
  ]);
  if (!summary.session || !graph) return null;
  const nodes: GNode[] = graph.nodes.map((n) => ({
    id: n.id,
    type: n.type ? n.type.toUpperCase() : null,
    label: n.label,
    agentName: n.session_id === id || !n.session_id ? n.agent_name : "",
    runId: n.run_id,
    timestamp: n.timestamp,
    isPlaceholder: Boolean(n.placeholder),
    citationKey: n.citation_key ?? null,
    failed: n.status === "error",
  }));
  nodes.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
  const edges = graph.edges.map((e) => ({ sourceId: e.source, targetId: e.target, label: e.label }));
  return { session: { ...summary.session, nodes }, edges };
}

export function notFound(el: HTMLElement, what: string, id: string): void {
  el.append(
    h(
      "div",
      { class: "panel empty-state", role: "alert" },
      h("h1", {}, `${what} not found`),
      h("p", {}, `No ${what.toLowerCase()} “${id}” in this project. It may belong to another project, or its events have not arrived yet.`),
      h("p", {}, h("a", { href: "#/sessions" }, "← Back to sessions")),
    ),
  );
}

export async function renderNodeDetail(panel: HTMLElement, id: string, onJump?: (id: string) => void): Promise<void> {
  clear(panel);
  panel.append(h("p", { class: "muted" }, "Loading node…"));
  const data = await gql<{ node: Record<string, any> | null }>(NODE, { id });
  clear(panel);
  const n = data.node;
  if (!n) {
    panel.append(h("p", {}, `Node “${id}” is not known (yet).`));
    return;
  }
  const rel = (list: { id: string; label: string; type: string | null }[]) =>
    list.length
      ? h("ul", { class: "rel" }, list.map((p) => h("li", {}, h("button", { type: "button", class: "link", onclick: () => onJump?.(p.id) }, p.label), " ", h("span", { class: "muted small" }, p.type ? p.type.toLowerCase().replace("_", " ") : "placeholder"))))
      : h("p", { class: "muted" }, "none");
  const dataText = JSON.stringify(n.data ?? {}, null, 2);
  append(panel, [
    h("h2", { id: "detail-title" }, n.label),
    h(
      "dl",
      { class: "kv" },
      h("dt", {}, "Type"), h("dd", {}, n.isPlaceholder ? "placeholder (its own event has not arrived)" : String(n.type).toLowerCase().replace("_", " ")),
      h("dt", {}, "Id"), h("dd", {}, h("code", {}, n.id)),
      h("dt", {}, "Agent"), h("dd", {}, n.agentName || "—"),
      h("dt", {}, "Run"), h("dd", {}, n.runId || "—"),
      h("dt", {}, "Time"), h("dd", {}, fmtTime(n.timestamp)),
      n.citationKey ? [h("dt", {}, "Citation key"), h("dd", {}, h("code", {}, n.citationKey))] : null,
      n.status ? [h("dt", {}, "Status"), h("dd", { class: n.status === "ERROR" ? "failed" : "" }, n.status === "ERROR" ? "✗ failed" : "ok")] : null,
    ),
    n.error ? h("p", { class: "notice failed", role: "note" }, `Failed: ${n.error.type}${n.error.message ? ` — ${n.error.message}` : ""}`) : null,
    n.type === "FINAL_OUTPUT" ? h("p", {}, h("a", { href: `#/output/${encodeURIComponent(n.id)}`, class: "button primary" }, "Open output and citations →")) : null,
    n.type === "DATA_READ" || n.type === "INPUT" ? h("p", {}, h("a", { href: `#/sources/${encodeURIComponent(n.id)}`, class: "button" }, "Impact: outputs depending on this source →")) : null,
    n.content ? [h("h3", {}, "Content"), folded(n.content)] : null,
    dataText !== "{}" ? [h("h3", {}, "Data"), folded(dataText, 300)] : null,
    h("h3", {}, `Parents (${n.parents.length})`),
    rel(n.parents),
    h("h3", {}, `Children (${n.children.length})`),
    rel(n.children),
  ]);
}

export async function renderSession(el: HTMLElement, id: string): Promise<void> {
  const loaded = await loadSessionGraph(id);
  if (!loaded) {
    notFound(el, "Session", id);
    return;
  }
  const { session, edges } = loaded;
  const started = performance.now();
  const graphBox = h("div", { class: "graph", id: "graph", role: "img", "aria-label": `Provenance graph of session ${id}: ${session.nodeCount} nodes, agents ${session.agentNames.join(", ")}` });
  const timelineBox = h("div", { class: "timeline-box", id: "timeline", hidden: true });
  const detail = h("aside", { class: "panel detail", id: "detail", "aria-labelledby": "detail-title" }, h("h2", { id: "detail-title" }, "Node details"), h("p", { class: "muted" }, "Select a node in the graph, the timeline or the search box."));
  const search = h("input", { id: "node-search", type: "search", placeholder: "Find a node (label or id)", list: "node-names", "aria-label": "Find a node" }) as HTMLInputElement;
  const names = h("datalist", { id: "node-names" }, session.nodes.slice(0, 2000).map((n) => h("option", { value: n.id }, n.label)));
  let view: GraphView | null = null;
  const select = (nodeId: string) => {
    view?.select(nodeId);
    void renderNodeDetail(detail, nodeId, select).catch((err) => handleError(err, detail));
  };
  search.addEventListener("change", () => {
    const q = search.value.trim().toLowerCase();
    if (!q) return;
    const hit = session.nodes.find((n) => n.id.toLowerCase() === q) ?? session.nodes.find((n) => n.id.toLowerCase().includes(q) || n.label.toLowerCase().includes(q));
    if (hit) select(hit.id);
    else announce(`No node matches “${search.value}”`);
  });
  const tabGraph = h("button", { type: "button", role: "tab", id: "tab-graph", "aria-selected": "true", "aria-controls": "graph" }, "Graph");
  const tabTimeline = h("button", { type: "button", role: "tab", id: "tab-timeline", "aria-selected": "false", "aria-controls": "timeline" }, "Timeline");
  let timelineDrawn = false;
  const show = (which: "graph" | "timeline") => {
    tabGraph.setAttribute("aria-selected", String(which === "graph"));
    tabTimeline.setAttribute("aria-selected", String(which === "timeline"));
    graphBox.hidden = which !== "graph";
    timelineBox.hidden = which !== "timeline";
    if (which === "timeline" && !timelineDrawn) {
      timelineDrawn = true;
      renderTimeline(timelineBox, session.nodes, select);
    }
  };
  tabGraph.addEventListener("click", () => show("graph"));
  tabTimeline.addEventListener("click", () => show("timeline"));
  const agentToggles = h("div", { class: "agents", role: "group", "aria-label": "Agents (collapse or expand)" });
  const drawAgents = () => {
    clear(agentToggles);
    const closed = view?.collapsed() ?? new Set<string>();
    for (const a of session.agents) {
      const isClosed = closed.has(a.name);
      agentToggles.append(
        h(
          "button",
          { type: "button", class: "chip", "aria-pressed": String(!isClosed), title: a.delegatedBy.length ? `delegated by ${a.delegatedBy.join(", ")}` : "top-level agent", onclick: () => { view?.setCollapsed(a.name, !isClosed); drawAgents(); } },
          `${isClosed ? "▸" : "▾"} ${a.name} (${a.nodeCount})`,
          a.delegatedBy.length ? h("span", { class: "muted small" }, ` ← ${a.delegatedBy.join(", ")}`) : null,
        ),
      );
    }
  };
  const changed = h("p", { class: "notice", id: "session-changed", hidden: true });
  el.append(
    h(
      "div",
      { class: "page-head" },
      h("p", { class: "crumbs" }, h("a", { href: "#/sessions" }, "Sessions"), " / "),
      h("h1", {}, `Session ${session.id}`),
      h(
        "p",
        { class: "facts" },
        `${session.nodeCount} nodes · ${session.runCount} runs · ${session.agentNames.length} agents · ${fmtTime(session.firstEventAt)} → ${fmtTime(session.lastEventAt)} `,
        session.verdictCounts.filter((v) => v.count > 0).map((v) => verdictBadge(v.verdict, v.count)),
      ),
    ),
    h(
      "section",
      { class: "panel outputs", "aria-label": "Outputs" },
      h("h2", {}, "Final outputs"),
      session.finalOutputs.length
        ? h("ul", { class: "outputs-list" }, session.finalOutputs.map((o) => h("li", {}, h("a", { href: `#/output/${encodeURIComponent(o.id)}` }, o.label), " ", h("span", { class: "muted small" }, `${o.agentName}${o.citationKey ? ` · cited as ${o.citationKey}` : " · top-level answer"}`))))
        : h("p", { class: "muted" }, "No final output yet."),
    ),
    changed,
    h("div", { class: "toolbar" }, h("div", { role: "tablist", class: "tabs", "aria-label": "View" }, tabGraph, tabTimeline), search, names, agentToggles),
    h("div", { class: "split" }, h("div", { class: "canvas" }, graphBox, timelineBox, legend()), detail),
  );
  view = renderGraph(graphBox, { nodes: session.nodes, edges }, select);
  (window as any).__provgraph = { view, firstRenderMs: performance.now() - started, nodes: session.nodes.length };
  graphBox.dataset.rendered = "true";
  drawAgents();
  onLeave(() => view?.destroy());
  onLeave(
    subscribe(
      "subscription Live { sessionUpdated { id nodeCount } }",
      {},
      (d: { sessionUpdated: { id: string; nodeCount: number } }) => {
        if (d.sessionUpdated.id !== id) return;
        const added = d.sessionUpdated.nodeCount - session.nodeCount;
        clear(changed);
        changed.append(
          `This session changed while open: ${d.sessionUpdated.nodeCount} nodes now (${added >= 0 ? "+" : ""}${added}). `,
          h("button", { type: "button", class: "link", onclick: () => void route() }, "Redraw"),
        );
        changed.hidden = false;
        announce(`Session changed: now ${d.sessionUpdated.nodeCount} nodes`);
      },
    ),
  );
}

function legend(): HTMLElement {
  const items: [string, string][] = [
    ["input", "input"], ["data_read", "data read"], ["tool_call", "tool call"], ["tool_result", "tool result"],
    ["model_request", "model request"], ["model_response", "model response"], ["agent_run", "agent run"], ["final_output", "final output"],
  ];
  return h(
    "div",
    { class: "legend", "aria-label": "Legend" },
    items.map(([t, label]) => h("span", { class: `lg lg-${t}` }, h("i", { "aria-hidden": "true" }), label)),
    h("span", { class: "lg lg-delegation" }, h("i", { "aria-hidden": "true" }), "delegation"),
    h("span", { class: "lg lg-placeholder" }, h("i", { "aria-hidden": "true" }), "placeholder"),
  );
}
