// Sessions: a paged, filterable list (filters live in the URL so a view can be pasted).

import { gql, subscribe } from "../api";
import { announce, clear, fmtTime, h } from "../dom";
import { handleError, onLeave } from "../main";
import { VERDICTS, verdictBadge } from "../verdicts";

interface SessionRow {
  id: string;
  nodeCount: number;
  runCount: number;
  agentNames: string[];
  firstEventAt: string | null;
  lastEventAt: string | null;
  finalOutputIds: string[];
  verdictCounts: { verdict: string; count: number }[];
}

interface Page {
  sessions: { edges: { cursor: string; node: SessionRow }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

const QUERY = `query Sessions($first: Int, $after: String, $filter: SessionFilter) {
  sessions(first: $first, after: $after, filter: $filter) {
    edges { cursor node { id nodeCount runCount agentNames firstEventAt lastEventAt finalOutputIds
      verdictCounts { verdict count } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const PAGE_SIZE = 20;
const FIELDS = ["agent", "since", "until", "verdict", "q"] as const;
type Filters = Partial<Record<(typeof FIELDS)[number], string>>;

function readFilters(): Filters {
  const query = location.hash.split("?")[1] ?? "";
  const params = new URLSearchParams(query);
  const out: Filters = {};
  for (const f of FIELDS) {
    const v = params.get(f);
    if (v) out[f] = v;
  }
  return out;
}

function toApi(f: Filters): Record<string, string> | null {
  const filter: Record<string, string> = {};
  if (f.agent) filter.agentName = f.agent;
  if (f.since) filter.since = new Date(f.since + "Z").toISOString();
  if (f.until) filter.until = new Date(f.until + "Z").toISOString();
  if (f.verdict) filter.verdict = f.verdict.toUpperCase();
  if (f.q) filter.search = f.q;
  return Object.keys(filter).length ? filter : null;
}

type SortKey = "last" | "nodes" | "agents" | "outputs" | "id";

export async function renderSessions(el: HTMLElement): Promise<void> {
  const filters = readFilters();
  const cursors: (string | null)[] = [null];
  let index = 0;
  let sort: SortKey = "last";
  let rows: SessionRow[] = [];
  let hasNext = false;

  const field = (name: keyof Filters, label: string, input: HTMLElement) =>
    h("div", { class: "field" }, h("label", { for: `f-${name}` }, label), input);
  const text = (name: keyof Filters, type = "text", placeholder = "") =>
    h("input", { id: `f-${name}`, name, type, value: filters[name] ?? "", placeholder, step: type === "datetime-local" ? "1" : null });
  const verdictSelect = h(
    "select",
    { id: "f-verdict", name: "verdict" },
    h("option", { value: "" }, "any"),
    ...VERDICTS.map((v) => h("option", { value: v, selected: filters.verdict === v }, `has ${v}`)),
  );
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filter sessions" },
    field("q", "Search labels and outputs", text("q", "search", "e.g. Northwind")),
    field("agent", "Agent name", text("agent", "text", "exact name")),
    field("since", "Active since (UTC)", text("since", "datetime-local")),
    field("until", "Active until (UTC)", text("until", "datetime-local")),
    field("verdict", "Citations", verdictSelect),
    h(
      "div",
      { class: "field actions" },
      h("button", { type: "submit", class: "primary" }, "Apply"),
      h("a", { href: "#/sessions", class: "button" }, "Reset"),
    ),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form as HTMLFormElement);
    const params = new URLSearchParams();
    for (const f of FIELDS) {
      const v = String(data.get(f) ?? "").trim();
      if (v) params.set(f, v);
    }
    const q = params.toString();
    location.hash = q ? `#/sessions?${q}` : "#/sessions";
  });

  const status = h("p", { class: "muted", id: "sessions-status", "aria-live": "polite" });
  const table = h("div", { class: "table-wrap" });
  const pager = h("div", { class: "pager" });
  el.append(
    h("div", { class: "page-head" }, h("h1", {}, "Sessions"), h("p", { class: "muted" }, "Newest activity first. Counts are per session; verdicts come from the newest report of each output.")),
    h("section", { class: "panel" }, form),
    status,
    table,
    pager,
  );

  async function load(): Promise<void> {
    const data = await gql<Page>(QUERY, { first: PAGE_SIZE, after: cursors[index], filter: toApi(filters) });
    rows = data.sessions.edges.map((e) => e.node);
    hasNext = data.sessions.pageInfo.hasNextPage;
    if (hasNext) cursors[index + 1] = data.sessions.pageInfo.endCursor;
    draw();
  }

  function sorted(): SessionRow[] {
    const by: Record<SortKey, (r: SessionRow) => string | number> = {
      last: (r) => r.lastEventAt ?? "",
      nodes: (r) => r.nodeCount,
      agents: (r) => r.agentNames.length,
      outputs: (r) => r.finalOutputIds.length,
      id: (r) => r.id,
    };
    const key = by[sort];
    const dir = sort === "id" ? 1 : -1;
    return [...rows].sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : 0));
  }

  function draw(): void {
    clear(table);
    clear(pager);
    const active = Object.keys(filters).length > 0;
    status.textContent = rows.length
      ? `${rows.length} session${rows.length === 1 ? "" : "s"} on this page${active ? " (filtered)" : ""}.`
      : "";
    if (!rows.length) {
      table.append(
        h(
          "div",
          { class: "panel empty-state" },
          h("h2", {}, active ? "No session matches these filters" : "No sessions yet"),
          h(
            "p",
            {},
            active
              ? "Widen the time range or clear a filter."
              : "Send events to POST /v1/events (or run `provgraph demo`) and they appear here live.",
          ),
        ),
      );
      return;
    }
    const head = (key: SortKey, label: string) =>
      h(
        "th",
        { scope: "col", "aria-sort": sort === key ? (key === "id" ? "ascending" : "descending") : null },
        h("button", { type: "button", class: "sort", onclick: () => { sort = key; draw(); } }, label),
      );
    const body = sorted().map((r) =>
      h(
        "tr",
        { "data-session": r.id },
        h("th", { scope: "row" }, h("a", { href: `#/session/${encodeURIComponent(r.id)}` }, r.id)),
        h("td", {}, fmtTime(r.lastEventAt)),
        h("td", { class: "num" }, r.nodeCount),
        h("td", {}, h("span", { class: "num" }, r.agentNames.length), " ", h("span", { class: "muted small" }, r.agentNames.join(", "))),
        h("td", { class: "num" }, r.finalOutputIds.length),
        h(
          "td",
          { class: "verdicts" },
          r.verdictCounts.some((v) => v.count > 0) ? r.verdictCounts.filter((v) => v.count > 0).map((v) => verdictBadge(v.verdict, v.count)) : h("span", { class: "muted" }, "not verified"),
        ),
      ),
    );
    table.append(
      h(
        "table",
        { class: "grid", "aria-describedby": "sessions-status" },
        h("caption", { class: "sr-only" }, "Sessions (column headers sort this page)"),
        h("thead", {}, h("tr", {}, head("id", "Session"), head("last", "Last event"), head("nodes", "Nodes"), head("agents", "Agents"), head("outputs", "Outputs"), h("th", { scope: "col" }, "Verdicts"))),
        h("tbody", {}, body),
      ),
    );
    const go = (step: number) => () => {
      index += step;
      void load().catch((err) => handleError(err));
    };
    pager.append(
      h("button", { type: "button", disabled: index === 0, onclick: go(-1) }, "← Newer"),
      h("span", { class: "muted" }, `page ${index + 1}`),
      h("button", { type: "button", disabled: !hasNext, onclick: go(1) }, "Older →"),
    );
  }

  await load();
  let pending: number | undefined;
  const refresh = () => {
    if (pending !== undefined) return;
    pending = window.setTimeout(() => {
      pending = undefined;
      void load()
        .then(() => announce("Sessions updated"))
        .catch((err) => handleError(err));
    }, 500);
  };
  onLeave(subscribe("subscription Sessions { sessionUpdated { id nodeCount } }", {}, refresh, refresh));
  onLeave(() => pending !== undefined && window.clearTimeout(pending));
}
