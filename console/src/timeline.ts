// The swim-lane timeline: one lane per agent, nodes placed by time (SVG, keyboard reachable).

import type { GNode } from "./graph";
import { typeColor } from "./graph";
import { fmtTime } from "./dom";

const NS = "http://www.w3.org/2000/svg";
const LANE = 44;
const LEFT = 170;
const MAX_MARKS = 3000;

function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export function renderTimeline(container: HTMLElement, nodes: GNode[], onSelect: (id: string) => void): void {
  const timed = nodes.filter((n) => !n.isPlaceholder && n.timestamp && !n.timestamp.startsWith("1970"));
  const lanes = [...new Set(timed.map((n) => n.agentName || "(no agent)"))];
  const times = timed.map((n) => Date.parse(n.timestamp));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const width = Math.max(container.clientWidth || 900, 600);
  const plot = width - LEFT - 30;
  const height = lanes.length * LANE + 40;
  const root = svg("svg", { width, height, role: "group", "aria-label": "Timeline by agent", class: "timeline" });
  lanes.forEach((lane, i) => {
    const y = 20 + i * LANE;
    root.append(svg("rect", { x: 0, y, width, height: LANE - 4, fill: i % 2 ? "#f7f9fc" : "#eef3fb", rx: 4 }));
    const text = svg("text", { x: 10, y: y + LANE / 2 + 2, class: "lane-label" });
    text.textContent = lane;
    root.append(text);
  });
  const scale = (t: number) => LEFT + (t1 > t0 ? ((t - t0) / (t1 - t0)) * plot : plot / 2);
  const axis = svg("text", { x: LEFT, y: 14, class: "axis" });
  axis.textContent = `${fmtTime(new Date(t0).toISOString())} → ${fmtTime(new Date(t1).toISOString())} (${((t1 - t0) / 1000).toFixed(1)} s)`;
  root.append(axis);
  timed.slice(0, MAX_MARKS).forEach((n, idx) => {
    const lane = lanes.indexOf(n.agentName || "(no agent)");
    const x = scale(times[idx]);
    const y = 20 + lane * LANE + (LANE - 4) / 2;
    const g = svg("g", { tabindex: 0, role: "button", class: "mark", "aria-label": `${n.type ?? "placeholder"} ${n.label} at ${fmtTime(n.timestamp)}`, "data-node": n.id });
    const title = svg("title", {});
    title.textContent = `${n.label} — ${n.type} — ${fmtTime(n.timestamp)}`;
    g.append(title, svg("circle", { cx: x, cy: y, r: n.type === "FINAL_OUTPUT" ? 8 : 6, fill: typeColor(n.type), stroke: "#fff", "stroke-width": 1.5 }));
    g.addEventListener("click", () => onSelect(n.id));
    g.addEventListener("keydown", (e) => {
      if ((e as KeyboardEvent).key === "Enter" || (e as KeyboardEvent).key === " ") {
        e.preventDefault();
        onSelect(n.id);
      }
    });
    root.append(g);
  });
  if (timed.length > MAX_MARKS) {
    const note = document.createElement("p");
    note.className = "muted small";
    note.textContent = `Showing the first ${MAX_MARKS} of ${timed.length} timed nodes (earliest first).`;
    container.append(note);
  }
  container.append(root);
}
