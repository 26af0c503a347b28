// Output: the final text with citations coloured by verdict; a citation opens its claim, the
// cited source with the evidence span highlighted, each stage's score; attribution paths drawn
// on the session graph; report versions side by side; "verify again" for admin keys.

import { gql, subscribe } from "../api";
import { announce, append, clear, fmtTime, h } from "../dom";
import { renderGraph, type GraphView } from "../graph";
import { currentViewer, handleError, onLeave } from "../main";
import { verdictBadge, verdictClass, worst } from "../verdicts";
import { compactRaw, num, pct, sourceWithEvidence, symbol } from "./citation";
import { loadSessionGraph, notFound } from "./session";

const OUTPUT = `query Output($id: ID!) {
  node(id: $id) { id type label agentName sessionId content timestamp citationKey }
  verificationReport(outputId: $id) { ...R }
  attribution(outputId: $id, maxDepth: 32, maxPaths: 100) {
    truncated
    sources { id label type citationKey }
    paths { nodeIds hopCount source { id label citationKey } failedSteps { id label error { type } } }
  }
}
fragment R on VerificationReport {
  id version configHash createdAt engineVersion schemaVersion citationsChecked supportRate
  unresolvableKeys verdictCounts { verdict count } stages { name status reason model version }
  citations { tagIndex keys sourceNodeId claim verdict confidence supportScore contradictionScore keptInText
    evidence { sourceKey start end text } scores raw }
  document
}`;
const VERSIONS = `query Versions($session: String) { verificationReports(filter: { sessionId: $session }, first: 100) {
  edges { node { outputId version configHash createdAt engineVersion citationsChecked supportRate verdictCounts { verdict count } } } } }`;
const SOURCE = `query Source($id: ID!) { node(id: $id) { id label type content citationKey agentName } }`;
const VERIFY = `mutation Verify($id: ID!) { requestVerification(outputId: $id) { id state attempts error reportVersion } }`;
const JOB = `subscription Job($id: ID!) { jobProgress(jobId: $id) { id state attempts error reportVersion } }`;
const ADDED = `subscription Added($session: ID) { reportAdded(sessionId: $session) { outputId version } }`;

interface Check {
  tagIndex: number | null;
  keys: string[];
  sourceNodeId: string | null;
  claim: string | null;
  verdict: string | null;
  confidence: number | null;
  supportScore: number | null;
  contradictionScore: number | null;
  keptInText: boolean | null;
  evidence: { sourceKey: string | null; start: number | null; end: number | null; text: string | null }[];
  scores: Record<string, { score?: number; raw?: Record<string, unknown> }> | null;
  raw: Record<string, any>;
}
interface Report {
  id: string;
  version: number;
  configHash: string;
  createdAt: string;
  engineVersion: string | null;
  schemaVersion: string | null;
  citationsChecked: number;
  supportRate: number | null;
  unresolvableKeys: string[];
  verdictCounts: { verdict: string; count: number }[];
  stages: { name: string; status: string; reason: string | null; model: string | null; version: string | null }[];
  citations: Check[];
  document: Record<string, any>;
}
interface Tag {
  tag_index: number;
  start: number;
  end: number;
  raw_tag: string;
  keys: string[];
  unresolvable_keys: string[];
  claim?: { text: string; start: number; end: number };
}
interface Path {
  nodeIds: string[];
  hopCount: number;
  source: { id: string; label: string; citationKey: string | null };
  failedSteps: { id: string; label: string; error: { type: string } | null }[];
}


export async function renderOutput(el: HTMLElement, id: string): Promise<void> {
  const exists = await gql<{ node: { id: string } | null }>("query Exists($id: ID!) { node(id: $id) { id } }", { id });
  if (!exists.node) {
    notFound(el, "Output", id);
    return;
  }
  const data = await gql<{ node: any; verificationReport: Report | null; attribution: { truncated: boolean; sources: any[]; paths: Path[] } }>(OUTPUT, { id });
  const node = data.node;
  let report = data.verificationReport;
  const paths = data.attribution.paths;
  const viewer = currentViewer();

  const textBox = h("div", { class: "output-text", id: "output-text" });
  const citationPanel = h("section", { class: "panel citation", id: "citation", "aria-live": "polite", "aria-label": "Citation" }, h("p", { class: "muted" }, "Select a citation in the text to see its claim, source and scores."));
  const summary = h("section", { class: "panel report-summary", id: "report-summary", "aria-label": "Verification report" });
  const jobBox = h("p", { class: "job", id: "job", "aria-live": "polite" });
  const versionsBox = h("section", { class: "panel", id: "versions", "aria-label": "Report versions" });
  const coverageBox = h("section", { class: "panel", id: "coverage", "aria-label": "Uncited support" });
  const graphBox = h("div", { class: "graph small", id: "graph", role: "img", "aria-label": "Attribution paths of this output on the session graph" });
  const pathList = h("ol", { class: "paths", id: "paths" });
  let view: GraphView | null = null;

  const verifyButton = viewer?.canRequestVerification
    ? h("button", { type: "button", class: "primary", id: "verify" }, report ? "Verify again" : "Verify now")
    : null;
  verifyButton?.addEventListener("click", async () => {
    (verifyButton as HTMLButtonElement).disabled = true;
    jobBox.textContent = "Requesting verification…";
    try {
      const res = await gql<{ requestVerification: { id: string; state: string } }>(VERIFY, { id });
      const job = res.requestVerification;
      jobBox.textContent = `Job ${job.id}: ${job.state.toLowerCase()}`;
      const stop = subscribe(JOB, { id: job.id }, (d: { jobProgress: { state: string; attempts: number; error: string | null; reportVersion: number | null } }) => {
        const j = d.jobProgress;
        jobBox.textContent = `Job ${job.id}: ${j.state.toLowerCase()}${j.attempts > 1 ? ` (attempt ${j.attempts})` : ""}${j.error ? ` — ${j.error}` : ""}${j.reportVersion ? ` → report v${j.reportVersion}` : ""}`;
        jobBox.className = `job job-${j.state.toLowerCase()}`;
        if (j.state === "DONE" || j.state === "FAILED") {
          (verifyButton as HTMLButtonElement).disabled = false;
          if (j.state === "DONE") void reload();
        }
      });
      onLeave(stop);
    } catch (err) {
      (verifyButton as HTMLButtonElement).disabled = false;
      jobBox.textContent = `Could not request verification: ${(err as Error).message}`;
    }
  });

  el.append(
    h(
      "div",
      { class: "page-head" },
      h("p", { class: "crumbs" }, h("a", { href: "#/sessions" }, "Sessions"), " / ", node.sessionId ? h("a", { href: `#/session/${encodeURIComponent(node.sessionId)}` }, node.sessionId) : "—", " /"),
      h("h1", {}, node.label),
      h("p", { class: "facts" }, `${node.agentName} · ${fmtTime(node.timestamp)}${node.citationKey ? ` · cited by others as ${node.citationKey}` : ""}`),
    ),
    h("div", { class: "split wide" }, h("div", {}, h("section", { class: "panel", "aria-label": "Output text" }, h("div", { class: "panel-head" }, h("h2", {}, "Answer"), h("div", { class: "actions" }, verifyButton)), jobBox, textBox, legendVerdicts()), summary, coverageBox), citationPanel),
    h("section", { class: "panel", "aria-label": "Attribution" }, h("h2", {}, "Attribution paths"), h("p", { class: "muted" }, `${paths.length} path${paths.length === 1 ? "" : "s"} from this output back to its sources${data.attribution.truncated ? " (truncated by the bounds)" : ""}. Select one to draw it on the graph.`), h("div", { class: "split" }, graphBox, pathList)),
    versionsBox,
  );

  let activeTag: number | null = null;

  function drawText(): void {
    clear(textBox);
    const content: string = node.content ?? "";
    const tags: Tag[] = (report?.document?.tags as Tag[] | undefined) ?? [];
    if (!report) {
      textBox.append(h("p", { class: "notice" }, "Not verified yet: citations are shown without verdicts."));
    }
    let at = 0;
    const byTag = new Map<number, Check[]>();
    for (const c of report?.citations ?? []) {
      if (c.tagIndex === null) continue;
      byTag.set(c.tagIndex, [...(byTag.get(c.tagIndex) ?? []), c]);
    }
    const para = h("p", {});
    // the selected citation's claim is marked in the text it was extracted from
    const claim = tags.find((t) => t.tag_index === activeTag)?.claim;
    const emit = (a: number, b: number) => {
      if (!claim || claim.end <= a || claim.start >= b) {
        para.append(content.slice(a, b));
        return;
      }
      const from = Math.max(a, claim.start);
      const to = Math.min(b, claim.end);
      para.append(content.slice(a, from), h("mark", { class: "claim-span" }, content.slice(from, to)), content.slice(to, b));
    };
    for (const tag of [...tags].sort((a, b) => a.start - b.start)) {
      if (tag.start < at) continue;
      emit(at, tag.start);
      const checks = byTag.get(tag.tag_index) ?? [];
      const verdict = tag.unresolvable_keys.length && !checks.length ? "unverifiable" : worst(checks.map((c) => c.verdict));
      const label = verdict ?? (tag.unresolvable_keys.length ? "unresolvable" : "not checked");
      const button = h(
        "button",
        { type: "button", class: `cite ${verdictClass(verdict)}${tag.tag_index === activeTag ? " active" : ""}`, "data-tag": tag.tag_index, "data-verdict": label, "aria-label": `Citation ${tag.keys.join(", ")}: ${label}` },
        h("span", { "aria-hidden": "true" }, symbol(label)),
        ` ${tag.keys.join("|")}`,
      );
      button.addEventListener("click", () => {
        activeTag = tag.tag_index;
        drawText();
        (textBox.querySelector(`button.cite[data-tag="${tag.tag_index}"]`) as HTMLElement | null)?.focus();
        void showCitation(tag, checks).catch((err) => handleError(err, citationPanel));
      });
      para.append(button);
      at = tag.end;
    }
    emit(at, content.length);
    if (!tags.length && content) {
      // no report: show raw tags as plain, non-interactive text
      clear(para);
      para.append(content);
    }
    textBox.append(...splitParagraphs(para));
  }

  async function showCitation(tag: Tag, checks: Check[]): Promise<void> {
    clear(citationPanel);
    append(citationPanel, [h("h2", {}, `Citation ${tag.raw_tag}`), tag.claim ? h("blockquote", { class: "claim" }, tag.claim.text) : null]);
    if (tag.unresolvable_keys.length) {
      citationPanel.append(h("p", { class: "notice" }, `Key${tag.unresolvable_keys.length > 1 ? "s" : ""} ${tag.unresolvable_keys.join(", ")} name${tag.unresolvable_keys.length > 1 ? "" : "s"} nothing this session read: the citation cannot be verified and was dropped from the verified text.`));
    }
    for (const check of checks) {
      const source = check.sourceNodeId ? (await gql<{ node: any }>(SOURCE, { id: check.sourceNodeId })).node : null;
      const ev = check.evidence[0];
      const relative = check.raw?.relative as { better_source_key?: string | null; best_other_key?: string | null; cited_score?: number; best_other_score?: number; stage?: string } | undefined;
      const scoreRows = Object.entries(check.scores ?? {}).map(([stage, s]) =>
        h("tr", {}, h("th", { scope: "row" }, stage), h("td", { class: "num" }, num(s?.score)), h("td", { class: "small muted" }, compactRaw(s?.raw))),
      );
      const path = paths.find((p) => p.source.id === check.sourceNodeId);
      citationPanel.append(
        h(
          "article",
          { class: `check check-${(check.verdict ?? "none").toLowerCase()}`, "data-key": check.keys.join("|") },
          h("h3", {}, verdictBadge(check.verdict), ` ${check.keys.join("|")} → ${source?.label ?? check.sourceNodeId ?? "?"}`),
          h("p", { class: "facts" }, `confidence ${pct(check.confidence)} · support ${num(check.supportScore)} · contradiction ${num(check.contradictionScore)} · ${check.keptInText ? "kept in the verified text" : "dropped from the verified text"}`),
          relative?.better_source_key
            ? h("p", { class: "notice relative" }, `${relative.better_source_key} supports this better (${relative.stage} ${num(relative.best_other_score)} vs ${num(relative.cited_score)} for the cited source).`)
            : null,
          h("h4", {}, "Cited source, evidence highlighted"),
          source?.content ? sourceWithEvidence(source.content, ev) : h("p", { class: "muted" }, "The source has no text."),
          h("h4", {}, "Scores by stage"),
          scoreRows.length ? h("table", { class: "grid compact" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Stage"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Signals"))), h("tbody", {}, scoreRows)) : h("p", { class: "muted" }, "No stage scored this pair."),
          path ? h("button", { type: "button", class: "button", "data-path": path.source.id, onclick: () => drawPath(path) }, `Show the attribution path to ${path.source.citationKey ?? path.source.label}`) : null,
          check.sourceNodeId ? h("a", { class: "button", href: `#/sources/${encodeURIComponent(check.sourceNodeId)}` }, "Other outputs using this source") : null,
        ),
      );
    }
    announce(`Citation ${tag.keys.join(", ")} selected`);
  }

  function drawSummary(): void {
    clear(summary);
    if (!report) {
      summary.append(h("h2", {}, "Verification"), h("p", { class: "muted" }, viewer?.canRequestVerification ? "No report yet. Use “Verify now”." : "No report yet (an admin key can request one)."));
      return;
    }
    append(summary, [
      h("h2", {}, `Report v${report.version}`),
      h("p", { class: "facts" }, `${report.citationsChecked === 0 ? "nothing to check" : `${report.citationsChecked} citation checks`} · support rate ${pct(report.supportRate)} · `, report.verdictCounts.filter((v) => v.count > 0).map((v) => verdictBadge(v.verdict, v.count))),
      h("dl", { class: "kv" }, h("dt", {}, "Created"), h("dd", {}, fmtTime(report.createdAt)), h("dt", {}, "Config hash"), h("dd", {}, h("code", {}, report.configHash)), h("dt", {}, "Engine"), h("dd", {}, report.engineVersion ?? "—")),
      report.unresolvableKeys.length ? h("p", { class: "notice" }, `Unresolvable keys: ${report.unresolvableKeys.join(", ")}`) : null,
      h("details", {}, h("summary", {}, "Stages"), h("ul", { class: "stages" }, report.stages.map((s) => h("li", {}, h("strong", {}, s.name), ` ${s.status}${s.reason ? ` — ${s.reason}` : ""}${s.model ? ` (${s.model}${s.version ? ` ${s.version}` : ""})` : ""}`)))),
    ]);
    clear(coverageBox);
    const coverage = (report.document?.coverage ?? []) as { sentence: string; candidate_source_key: string; support_score: number; stage: string }[];
    coverageBox.append(
      h("h2", {}, "Uncited sentences a source supports"),
      coverage.length
        ? h("ul", {}, coverage.map((c) => h("li", {}, h("q", {}, c.sentence), ` — ${c.candidate_source_key} would support it (${c.stage} ${num(c.support_score)})`)))
        : h("p", { class: "muted" }, "None found."),
    );
  }

  async function drawVersions(): Promise<void> {
    clear(versionsBox);
    versionsBox.append(h("h2", {}, "Report versions"));
    if (!node.sessionId) return;
    const res = await gql<{ verificationReports: { edges: { node: any }[] } }>(VERSIONS, { session: node.sessionId });
    const mine = res.verificationReports.edges.map((e) => e.node).filter((r) => r.outputId === id).sort((a, b) => b.version - a.version);
    if (!mine.length) {
      versionsBox.append(h("p", { class: "muted" }, "No report yet."));
      return;
    }
    versionsBox.append(
      h(
        "table",
        { class: "grid compact" },
        h("thead", {}, h("tr", {}, ["Version", "Created", "Config hash", "Engine", "Checked", "Support rate", "Verdicts"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, mine.map((r) => h("tr", {}, h("th", { scope: "row" }, `v${r.version}`), h("td", {}, fmtTime(r.createdAt)), h("td", {}, h("code", {}, r.configHash.slice(0, 12))), h("td", {}, r.engineVersion ?? "—"), h("td", { class: "num" }, r.citationsChecked), h("td", { class: "num" }, pct(r.supportRate)), h("td", {}, r.verdictCounts.filter((v: any) => v.count > 0).map((v: any) => verdictBadge(v.verdict, v.count)))))),
      ),
    );
  }

  function drawPath(path: Path): void {
    view?.highlightPath(path.nodeIds);
    graphBox.scrollIntoView({ block: "center" });
    (window as any).__provgraphPath = () => path.nodeIds.filter((nid) => view?.cy.getElementById(nid).hasClass("path"));
    (window as any).__provgraph_cy_path_edges = () => view?.cy.edges(".path").length ?? 0;
    for (const li of pathList.querySelectorAll("button")) li.setAttribute("aria-pressed", String(li.dataset.source === path.source.id && li.dataset.hops === String(path.hopCount)));
    announce(`Path to ${path.source.label} drawn: ${path.hopCount} hops`);
  }

  function drawPaths(): void {
    clear(pathList);
    for (const p of paths) {
      pathList.append(
        h("li", {}, h("button", { type: "button", class: "link", "data-source": p.source.id, "data-hops": p.hopCount, "aria-pressed": "false", title: p.nodeIds.join(" → "), onclick: () => drawPath(p) }, `${p.source.citationKey ? `${p.source.citationKey} · ` : ""}${p.source.label}`), h("span", { class: "muted small" }, ` ${p.hopCount} hop${p.hopCount === 1 ? "" : "s"}`), p.failedSteps.length ? h("span", { class: "failed small", title: p.failedSteps.map((f) => `${f.label}: ${f.error?.type ?? "error"}`).join("\n") }, ` · ✗ ${p.failedSteps.length} failed step${p.failedSteps.length === 1 ? "" : "s"}`) : null),
      );
    }
  }

  async function reload(): Promise<void> {
    const fresh = await gql<{ verificationReport: Report | null }>(`query R($id: ID!) { verificationReport(outputId: $id) { ...R } } ${OUTPUT.slice(OUTPUT.indexOf("fragment R"))}`, { id });
    report = fresh.verificationReport;
    if (verifyButton && report) verifyButton.textContent = "Verify again";
    drawText();
    drawSummary();
    await drawVersions();
    announce(report ? `Report v${report.version} loaded` : "No report");
  }

  drawText();
  drawSummary();
  drawPaths();
  await drawVersions();
  if (node.sessionId) {
    const loaded = await loadSessionGraph(node.sessionId);
    if (loaded) {
      view = renderGraph(graphBox, { nodes: loaded.session.nodes, edges: loaded.edges }, () => undefined, new Set());
      onLeave(() => view?.destroy());
    }
    onLeave(
      subscribe(ADDED, { session: node.sessionId }, (d: { reportAdded: { outputId: string; version: number } }) => {
        if (d.reportAdded.outputId === id && (!report || d.reportAdded.version > report.version)) {
          const banner = document.getElementById("report-live");
          if (banner) banner.textContent = `New report v${d.reportAdded.version} arrived.`;
          void reload();
        }
      }, () => void reload().catch(() => undefined), 15000),
    );
  }
  summary.before(h("p", { class: "notice live-note", id: "report-live", "aria-live": "polite" }));
}

function splitParagraphs(p: HTMLElement): HTMLElement[] {
  // keep the output's blank-line paragraphs: split text nodes on "\n\n"
  const out: HTMLElement[] = [h("p", {})];
  for (const child of [...p.childNodes]) {
    if (child.nodeType === Node.TEXT_NODE) {
      const parts = (child.textContent ?? "").split(/\n\s*\n/);
      parts.forEach((part, i) => {
        if (i > 0) out.push(h("p", {}));
        out[out.length - 1].append(part);
      });
    } else out[out.length - 1].append(child);
  }
  return out;
}

function legendVerdicts(): HTMLElement {
  return h("p", { class: "legend-verdicts muted small" }, "Citations: ", ["supported", "weak", "unsupported", "contradicted", "unverifiable"].map((v) => verdictBadge(v)));
}
