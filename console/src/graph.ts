// The session graph: Cytoscape.js with a layered (dagre) layout, one compound box per agent.
// Large sessions start collapsed by agent (an agent box stands for its nodes) so the
// first render stays fast; expanding an agent re-renders with its nodes.

import cytoscape, { type Core, type ElementDefinition } from "cytoscape";
import dagre from "cytoscape-dagre";

cytoscape.use(dagre);

export interface GNode {
  id: string;
  type: string | null;
  label: string;
  agentName: string;
  runId: string;
  timestamp: string;
  isPlaceholder: boolean;
  citationKey: string | null;
  /** The step ended in an error (a tool that raised, a failed run or model call). */
  failed?: boolean;
}

export interface GEdge {
  sourceId: string;
  targetId: string;
  label: string;
}

export interface GraphModel {
  nodes: GNode[];
  edges: GEdge[];
}

export const COLLAPSE_ABOVE = 300;
const NO_AGENT = "(no agent)";

const TYPE_STYLE: Record<string, { color: string; shape: string }> = {
  input: { color: "#5b8def", shape: "round-rectangle" },
  data_read: { color: "#2a9d8f", shape: "barrel" },
  tool_call: { color: "#e9c46a", shape: "diamond" },
  tool_result: { color: "#f4a261", shape: "round-diamond" },
  model_request: { color: "#8d99ae", shape: "ellipse" },
  model_response: { color: "#6c7a93", shape: "ellipse" },
  agent_run: { color: "#264653", shape: "hexagon" },
  final_output: { color: "#9b5de5", shape: "star" },
};

/** GraphQL sends enum names (DATA_READ); styles are keyed by the event type (data_read). */
export function typeKey(type: string | null): string {
  return (type ?? "").toLowerCase();
}

export function typeColor(type: string | null): string {
  return TYPE_STYLE[typeKey(type)]?.color ?? "#bbb";
}

function agentId(name: string): string {
  return `agent::${name}`;
}

function shortLabel(n: GNode): string {
  const text = (n.failed ? "✗ " : "") + n.label;
  const base = text.length > 34 ? text.slice(0, 33) + "…" : text;
  return n.citationKey ? `${base} [${n.citationKey}]` : base;
}

export function buildElements(model: GraphModel, collapsed: Set<string>): ElementDefinition[] {
  const agentOf = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const n of model.nodes) {
    const a = n.agentName || NO_AGENT;
    agentOf.set(n.id, a);
    counts.set(a, (counts.get(a) ?? 0) + 1);
  }
  const out: ElementDefinition[] = [];
  for (const [a, count] of counts) {
    const closed = collapsed.has(a);
    out.push({
      group: "nodes",
      data: { id: agentId(a), label: closed ? `${a}\n${count} nodes (collapsed)` : a, agent: a, kind: "agent" },
      classes: closed ? "agent collapsed" : "agent",
    });
  }
  const where = (id: string): string => {
    const a = agentOf.get(id);
    return a !== undefined && collapsed.has(a) ? agentId(a) : id;
  };
  for (const n of model.nodes) {
    const a = agentOf.get(n.id) as string;
    if (collapsed.has(a)) continue;
    out.push({
      group: "nodes",
      data: {
        id: n.id,
        parent: agentId(a),
        label: shortLabel(n),
        color: typeColor(n.type),
        shape: TYPE_STYLE[typeKey(n.type)]?.shape ?? "rectangle",
        type: typeKey(n.type) || "placeholder",
        kind: "node",
      },
      classes: [n.isPlaceholder ? "placeholder" : "", n.failed ? "failed" : ""].join(" ").trim(),
    });
  }
  // endpoints outside the session (or not yet reported): placeholders without an agent box
  const known = new Set(model.nodes.map((n) => n.id));
  const seen = new Map<string, number>();
  for (const e of model.edges) {
    for (const end of [e.sourceId, e.targetId]) {
      if (!known.has(end)) {
        known.add(end);
        out.push({ group: "nodes", data: { id: end, label: `(not reported) ${end}`, color: "#ddd", shape: "rectangle", kind: "node", type: "placeholder" }, classes: "placeholder" });
      }
    }
    const s = where(e.sourceId);
    const t = where(e.targetId);
    if (s === t) continue;
    const key = `${s}\u0000${t}\u0000${e.label}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (const [key, count] of seen) {
    const [s, t, label] = key.split("\u0000");
    out.push({
      group: "edges",
      data: { id: `e::${key}`, source: s, target: t, label: count > 1 ? `${label} ×${count}` : label, rel: label },
      classes: label === "delegates_to" ? "delegation" : label,
    });
  }
  return out;
}

const STYLE: cytoscape.StylesheetJson = [
  {
    selector: "node[kind = 'node']",
    style: {
      "background-color": "data(color)",
      shape: "data(shape)" as never,
      label: "data(label)",
      "font-size": 10,
      "text-valign": "bottom",
      "text-margin-y": 4,
      color: "#1d2433",
      "text-wrap": "wrap",
      "text-max-width": "96px",
      width: 22,
      height: 22,
      "border-width": 1,
      "border-color": "#ffffff",
    },
  },
  {
    selector: "node.agent",
    style: {
      "background-color": "#eef3fb",
      "background-opacity": 0.8,
      "border-color": "#9fb4d6",
      "border-width": 1,
      shape: "round-rectangle",
      label: "data(label)",
      "text-valign": "top",
      "text-halign": "center",
      "font-size": 12,
      "font-weight": "bold",
      color: "#1f3a5f",
      padding: "14px",
      "text-wrap": "wrap",
    },
  },
  {
    selector: "node.agent.collapsed",
    style: { width: 150, height: 50, "text-valign": "center", "background-color": "#dbe6f7", "border-width": 2 },
  },
  { selector: "node.failed", style: { "border-style": "double", "border-color": "#c62828", "border-width": 4, color: "#b71c1c" } },
  { selector: "node.placeholder", style: { "border-style": "dashed", "border-color": "#888", "border-width": 2, "background-color": "#f4f4f4" } },
  {
    selector: "edge",
    style: {
      width: 1.2,
      "line-color": "#b5bfd0",
      "target-arrow-color": "#b5bfd0",
      "target-arrow-shape": "triangle",
      "curve-style": "bezier",
      "arrow-scale": 0.8,
    },
  },
  {
    selector: "edge.delegation",
    style: {
      width: 4,
      "line-color": "#e76f51",
      "target-arrow-color": "#e76f51",
      label: "data(label)",
      "font-size": 10,
      color: "#b8442a",
      "text-background-color": "#fff",
      "text-background-opacity": 0.9,
      "text-background-padding": "2px",
    },
  },
  { selector: "edge.cited_in", style: { "line-style": "dashed", "line-color": "#9b5de5", "target-arrow-color": "#9b5de5" } },
  { selector: ".dim", style: { opacity: 0.18 } },
  {
    selector: "node.path",
    style: { "border-width": 4, "border-color": "#0b63ce", opacity: 1, "z-index": 10 },
  },
  {
    selector: "edge.path",
    style: { width: 5, "line-color": "#0b63ce", "target-arrow-color": "#0b63ce", opacity: 1, "z-index": 10 },
  },
  { selector: "node:selected", style: { "border-width": 4, "border-color": "#111", "overlay-opacity": 0 } },
];

export interface GraphView {
  cy: Core;
  highlightPath: (nodeIds: string[] | null) => void;
  select: (nodeId: string) => boolean;
  setCollapsed: (agent: string, closed: boolean) => void;
  collapsed: () => Set<string>;
  destroy: () => void;
}

export function renderGraph(
  container: HTMLElement,
  model: GraphModel,
  onSelect: (nodeId: string) => void,
  initialCollapsed?: Set<string>,
): GraphView {
  const agents = new Set(model.nodes.map((n) => n.agentName || NO_AGENT));
  const closed = initialCollapsed ?? (model.nodes.length > COLLAPSE_ABOVE ? new Set(agents) : new Set<string>());
  const cy = cytoscape({
    container,
    elements: buildElements(model, closed),
    style: STYLE,
    layout: layoutOptions(),
    wheelSensitivity: 0.3,
    minZoom: 0.05,
    maxZoom: 3,
    textureOnViewport: model.nodes.length > COLLAPSE_ABOVE,
    hideEdgesOnViewport: model.nodes.length > COLLAPSE_ABOVE,
  });
  cy.on("tap", "node", (evt) => {
    const n = evt.target;
    if (n.data("kind") === "agent") {
      const agent = n.data("agent") as string;
      if (closed.has(agent)) view.setCollapsed(agent, false);
      return;
    }
    onSelect(n.id());
  });
  let lastPath: string[] | null = null;
  const view: GraphView = {
    cy,
    highlightPath(nodeIds) {
      lastPath = nodeIds;
      cy.elements().removeClass("path dim");
      if (!nodeIds || !nodeIds.length) return;
      const on = new Set(nodeIds);
      const hidden = nodeIds.filter((id) => cy.getElementById(id).empty());
      if (hidden.length) {
        // expand agents whose nodes are on the path
        const agentsToOpen = model.nodes.filter((n) => on.has(n.id)).map((n) => n.agentName || NO_AGENT);
        let changed = false;
        for (const a of agentsToOpen) if (closed.delete(a)) changed = true;
        if (changed) {
          rebuild();
          return;
        }
      }
      cy.elements().addClass("dim");
      cy.nodes(".agent").removeClass("dim");
      for (let i = 0; i < nodeIds.length; i++) {
        cy.getElementById(nodeIds[i]).removeClass("dim").addClass("path");
        if (i + 1 < nodeIds.length) {
          cy.edges()
            .filter((e) => e.source().id() === nodeIds[i] && e.target().id() === nodeIds[i + 1])
            .removeClass("dim")
            .addClass("path");
        }
      }
      cy.animate({ fit: { eles: cy.elements(".path"), padding: 60 }, duration: 250 });
    },
    select(nodeId) {
      let el = cy.getElementById(nodeId);
      if (el.empty()) {
        const n = model.nodes.find((x) => x.id === nodeId);
        if (n && closed.delete(n.agentName || NO_AGENT)) rebuild();
        el = cy.getElementById(nodeId);
      }
      if (el.empty()) return false;
      cy.$(":selected").unselect();
      el.select();
      cy.animate({ center: { eles: el }, zoom: Math.max(cy.zoom(), 1), duration: 200 });
      return true;
    },
    setCollapsed(agent, isClosed) {
      if (isClosed) closed.add(agent);
      else closed.delete(agent);
      rebuild();
    },
    collapsed: () => new Set(closed),
    destroy: () => cy.destroy(),
  };
  function rebuild(): void {
    cy.batch(() => {
      cy.elements().remove();
      cy.add(buildElements(model, closed));
    });
    cy.layout(layoutOptions()).run();
    if (lastPath) view.highlightPath(lastPath);
  }
  return view;
}

function layoutOptions(): cytoscape.LayoutOptions {
  return {
    name: "dagre",
    rankDir: "LR",
    nodeSep: 30,
    rankSep: 70,
    edgeSep: 8,
    fit: true,
    padding: 20,
    animate: false,
  } as cytoscape.LayoutOptions;
}
