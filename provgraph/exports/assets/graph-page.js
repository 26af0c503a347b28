(function () {
  "use strict";
  // The graph arrives as JSON in a non-executable script block of type application/json.
  // Every string from it reaches the page through textContent or Cytoscape's canvas,
  // never through innerHTML, so no label can become markup.
  const rawGraph = JSON.parse(document.getElementById("provgraph-data").textContent);
  var nodes = rawGraph.nodes, edges = rawGraph.edges, styles = rawGraph.styles;
  var W = 180, H = 46, GAP_X = 90, GAP_Y = 34, CONTENT_CHARS = 1200, LABEL_CHARS = 60;
  var SHAPES = {
    input: "round-rectangle", agent_run: "cut-rectangle", model_request: "hexagon",
    model_response: "round-rectangle", tool_call: "rectangle", tool_result: "rhomboid",
    data_read: "barrel", final_output: "ellipse", placeholder: "rectangle"
  };

  function el(tag, parent, cls) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(tag, value, parent) { var e = el(tag, parent); e.textContent = value; return e; }
  function short(s, n) { return s.length > n ? s.slice(0, n - 1) + "\u2026" : s; }

  var preds = new Map(), succs = new Map(), byId = new Map();
  nodes.forEach(function (n) { preds.set(n.id, []); succs.set(n.id, []); byId.set(n.id, n); });
  edges.forEach(function (e) { succs.get(e.source).push(e.target); preds.get(e.target).push(e.source); });

  // Longest-path layering (Kahn order): a node sits one column right of its deepest parent.
  var layer = new Map(), indeg = new Map(), queue = [];
  nodes.forEach(function (n) { indeg.set(n.id, preds.get(n.id).length); });
  nodes.forEach(function (n) { if (indeg.get(n.id) === 0) { queue.push(n.id); layer.set(n.id, 0); } });
  for (var i = 0; i < queue.length; i++) {
    var id = queue[i];
    succs.get(id).forEach(function (t) {
      layer.set(t, Math.max(layer.has(t) ? layer.get(t) : 0, layer.get(id) + 1));
      indeg.set(t, indeg.get(t) - 1);
      if (indeg.get(t) === 0) queue.push(t);
    });
  }
  // A cycle (never produced by a well-formed session) must not hide nodes: place them anyway.
  nodes.forEach(function (n) { if (!layer.has(n.id)) layer.set(n.id, 0); });
  var columns = [];
  nodes.forEach(function (n) {
    var l = layer.get(n.id);
    while (columns.length <= l) columns.push([]);
    columns[l].push(n.id);
  });
  // Ordering: a few barycentre sweeps (along parents, then children) to untangle edges.
  var pos = new Map();
  columns.forEach(function (c) { c.forEach(function (nid, k) { pos.set(nid, k); }); });
  function sweep(col, neighbours) {
    var bary = new Map();
    col.forEach(function (nid) {
      var ns = neighbours.get(nid);
      bary.set(nid, ns.length ? ns.reduce(function (s, x) { return s + pos.get(x); }, 0) / ns.length : pos.get(nid));
    });
    col.sort(function (a, b) { return bary.get(a) - bary.get(b) || pos.get(a) - pos.get(b); });
    col.forEach(function (nid, k) { pos.set(nid, k); });
  }
  for (var round = 0; round < 4; round++) {
    for (var d = 1; d < columns.length; d++) sweep(columns[d], preds);
    for (var u = columns.length - 2; u >= 0; u--) sweep(columns[u], succs);
  }
  // Columns run left to right along the data flow (the seed's rankDir "LR").
  var tallest = Math.max.apply(null, columns.map(function (c) { return c.length; }).concat([1]));
  var positions = new Map();
  columns.forEach(function (col, l) {
    var offset = (tallest - col.length) * (H + GAP_Y) / 2;
    col.forEach(function (nid, k) { positions.set(nid, { x: l * (W + GAP_X), y: offset + k * (H + GAP_Y) }); });
  });

  var elements = [];
  nodes.forEach(function (n) {
    var st = styles[n.style];
    var key = n.citation_key || null;
    var failed = n.status === "error";
    var label = (failed ? "\u2717 " : "") + short(n.label || n.id, LABEL_CHARS) + (key ? "\n[" + key + "]" : "");
    elements.push({
      group: "nodes",
      data: { id: n.id, label: label, fill: st.fill, stroke: st.stroke, shape: SHAPES[n.style] || "rectangle" },
      position: positions.get(n.id),
      classes: [n.style === "placeholder" ? "placeholder" : "",
                key ? (key.indexOf("a_") === 0 ? "key-agent" : "key-data") : "",
                failed ? "failed" : ""].join(" ").trim()
    });
  });
  edges.forEach(function (e, k) {
    elements.push({ group: "edges", data: { id: "e" + k, source: e.source, target: e.target, label: e.label || "" } });
  });

  var cy = cytoscape({
    container: document.getElementById("cy"),
    elements: elements,
    layout: { name: "preset", fit: true, padding: 30 },
    minZoom: 0.05,
    maxZoom: 4,
    style: [
      { selector: "node", style: {
        "label": "data(label)", "shape": "data(shape)", "width": W, "height": H,
        "background-color": "data(fill)", "border-color": "data(stroke)", "border-width": 1.5,
        "color": "#212121", "font-size": 11, "text-valign": "center", "text-halign": "center",
        "text-wrap": "wrap", "text-max-width": W - 16, "font-family": "system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"
      } },
      { selector: "node.placeholder", style: { "border-style": "dashed", "color": "#757575" } },
      { selector: "node.key-data", style: { "border-width": 3, "border-color": "#d97706" } },
      { selector: "node.key-agent", style: { "border-width": 3, "border-color": "#2563eb" } },
      { selector: "node.failed", style: { "border-width": 4, "border-style": "double", "border-color": "#c62828", "color": "#b71c1c" } },
      { selector: "node:selected", style: { "border-width": 4, "border-color": "#0969da", "overlay-opacity": 0.06 } },
      { selector: "edge", style: {
        "width": 1.3, "line-color": "#9e9e9e", "target-arrow-color": "#9e9e9e", "target-arrow-shape": "triangle",
        "curve-style": "bezier", "label": "data(label)", "font-size": 9, "color": "#616161",
        "text-background-color": "#ffffff", "text-background-opacity": 0.85, "text-background-padding": 2
      } },
      { selector: "edge.active", style: { "line-color": "#1e88e5", "target-arrow-color": "#1e88e5", "width": 2.4, "color": "#1565c0" } }
    ]
  });

  // A long session fitted whole is unreadably small: start at a legible zoom at its beginning
  // (the "fit" button shows everything).
  var MIN_START_ZOOM = 0.55;
  if (nodes.length && cy.zoom() < MIN_START_ZOOM) {
    var bb = cy.elements().boundingBox();
    cy.zoom(MIN_START_ZOOM);
    cy.pan({ x: 30 - bb.x1 * MIN_START_ZOOM, y: cy.height() / 2 - (bb.y1 + bb.h / 2) * MIN_START_ZOOM });
  }

  function select(n) {
    cy.elements().unselect();
    cy.edges().removeClass("active");
    var node = cy.getElementById(n.id);
    node.select();
    node.connectedEdges().addClass("active");
    var box = document.getElementById("details");
    box.textContent = "";
    var dl = el("dl", box);
    function row(name, value, pre) {
      if (value === undefined || value === null || value === "") return;
      text("dt", name, dl);
      var dd = el("dd", dl);
      if (pre) text("pre", value, dd); else dd.textContent = value;
    }
    function edgeLabel(a, b) { var e = edges.find(function (x) { return x.source === a && x.target === b; }); return e ? e.label : ""; }
    function neighbours(list, label) {
      return list.map(function (nid) { var m = byId.get(nid); return (m.label || m.id) + " (" + label(nid) + ")"; }).join("\n");
    }
    row("label", n.label);
    row("type", n.type || "placeholder (its event has not arrived)");
    row("id", n.id);
    row("agent", n.agent_name);
    row("run", n.run_id);
    row("session", n.session_id);
    row("timestamp", n.timestamp);
    row("citation key", n.citation_key);
    row("status", n.status);
    if (n.error) row("error", n.error.type + (n.error.message ? ": " + n.error.message : ""), true);
    if (n.data && Object.keys(n.data).length) row("data", JSON.stringify(n.data, null, 2), true);
    if (typeof n.content === "string") {
      var omitted = (n.content_omitted_chars || 0) + Math.max(0, n.content.length - CONTENT_CHARS);
      row("content", short(n.content, CONTENT_CHARS) + (omitted ? "\n[" + omitted + " more characters not shown]" : ""), true);
    }
    row("from", neighbours(preds.get(n.id), function (nid) { return edgeLabel(nid, n.id); }), true);
    row("to", neighbours(succs.get(n.id), function (nid) { return edgeLabel(n.id, nid); }), true);
  }
  cy.on("tap", "node", function (evt) { select(byId.get(evt.target.id())); });
  cy.on("tap", function (evt) {
    if (evt.target !== cy) return;
    cy.elements().unselect();
    cy.edges().removeClass("active");
    var box = document.getElementById("details");
    box.textContent = "";
    text("p", "Click a node to see its details.", box).className = "hint";
  });

  function zoomBy(factor) {
    var box = document.getElementById("cy");
    cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: box.clientWidth / 2, y: box.clientHeight / 2 } });
  }
  document.getElementById("zoom-in").addEventListener("click", function () { zoomBy(1.25); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoomBy(1 / 1.25); });
  document.getElementById("zoom-fit").addEventListener("click", function () { cy.fit(undefined, 30); });

  var counts = {};
  nodes.forEach(function (n) { counts[n.style] = (counts[n.style] || 0) + 1; });
  var legend = document.getElementById("legend");
  Object.keys(styles).forEach(function (key) {
    var item = el("div", legend);
    var swatch = el("span", item, "swatch");
    swatch.style.background = styles[key].fill;
    swatch.style.borderColor = styles[key].stroke;
    text("span", styles[key].description + " (" + (counts[key] || 0) + ")", item);
  });
  var failedCount = nodes.filter(function (n) { return n.status === "error"; }).length;
  [["key-data", "#d97706", "data source key (d_N)"], ["key-agent", "#2563eb", "agent output key (a_N)"],
   ["failed", "#c62828", "failed step (" + failedCount + ")"]].forEach(function (k) {
    var item = el("div", legend);
    var swatch = el("span", item, "swatch");
    swatch.style.borderColor = k[1];
    swatch.style.borderWidth = "3px";
    text("span", k[2], item);
  });
  document.getElementById("summary").textContent = nodes.length + " nodes \u00b7 " + edges.length +
    " edges. Data flows left to right; click a node for its details, scroll to zoom, drag to pan.";
  // A link may name a node to open with: page.html#node=<url-encoded node id>.
  var wanted = /^#node=(.+)$/.exec(location.hash || "");
  if (wanted) { try { var pre = byId.get(decodeURIComponent(wanted[1])); if (pre) select(pre); } catch (err) { /* bad escape: ignore */ } }
  if (!nodes.length) text("p", "This graph has no nodes yet.", document.getElementById("cy")).id = "empty";
  // For tests and tools: what was drawn.
  document.body.setAttribute("data-rendered-nodes", String(cy.nodes().length));
  document.body.setAttribute("data-rendered-edges", String(cy.edges().length));
  document.body.setAttribute("data-failed-nodes", String(cy.nodes(".failed").length));
})();
