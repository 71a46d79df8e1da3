// brv ui: the graph page, interactive. Reads the page's JSON data block (nodes and links that
// brv's link_graph service chose) and draws it with the vendored Cytoscape.js: scroll to zoom,
// drag to pan, filters by domain, tag and maturity, a search that marks and centres a node,
// a click (or Enter on a found node) that opens it. Labels are canvas text, never HTML.
"use strict";
(function () {
  const holder = document.getElementById("graph");
  const source = document.getElementById("graph-data");
  if (!holder || !source || typeof window.cytoscape !== "function") { return; }
  const data = JSON.parse(source.textContent);
  const tools = document.getElementById("graph-tools");
  const colours = ["#2456a6", "#1d7a46", "#b3541e", "#7b3fa0", "#a6243c", "#1e7f8c",
                   "#8a6d1d", "#4d5bd1", "#5c7a1d", "#c2410c"];
  const domains = Array.from(new Set(data.nodes.map(n => n.domain))).sort();
  const colourOf = d => colours[Math.max(0, domains.indexOf(d)) % colours.length];
  const elements = [];
  for (const n of data.nodes) {
    elements.push({ group: "nodes", data: {
      id: n.id, label: n.label.length > 40 ? n.label.slice(0, 39) + "\u2026" : n.label,
      kind: n.kind, href: n.href, domain: n.domain, tags: n.tags, maturity: n.maturity,
      colour: colourOf(n.domain), size: 14 + Math.min(26, 4 * Math.sqrt(n.degree || 0)),
      centre: n.id === data.center && data.scope !== "whole" } });
  }
  data.edges.forEach(function (e, i) {
    elements.push({ group: "edges", data: { id: "e" + i, source: e.source, target: e.target,
      kind: e.kind, width: Math.min(6, 1 + Math.log2(e.weight || 1)) } });
  });

  holder.hidden = false;
  tools.hidden = false;
  // Cytoscape adds a <style> element (container position: relative) unless an element of
  // this id exists; the page's CSP refuses inline styles, and ui.css holds that rule
  if (!document.getElementById("__________cytoscape_stylesheet")) {
    const mark = document.createElement("meta");
    mark.id = "__________cytoscape_stylesheet";
    document.head.appendChild(mark);
  }
  const cy = window.cytoscape({
    container: holder,
    elements: elements,
    minZoom: 0.1,
    maxZoom: 4,
    style: [
      { selector: "node", style: {
        "background-color": "data(colour)", "label": "data(label)", "width": "data(size)",
        "height": "data(size)", "font-size": 10, "color": "#1d232a", "text-valign": "bottom",
        "text-margin-y": 3, "text-outline-color": "#fafbfc", "text-outline-width": 2 } },
      { selector: "node[kind = 'folder']", style: { "shape": "round-rectangle" } },
      { selector: "node[?centre]", style: { "border-width": 3, "border-color": "#1d232a" } },
      { selector: "edge", style: {
        "width": "data(width)", "line-color": "#b8c1cc", "curve-style": "bezier",
        "target-arrow-shape": "triangle", "target-arrow-color": "#b8c1cc",
        "arrow-scale": 0.7 } },
      { selector: "edge[kind = 'in']", style: { "line-style": "dotted",
        "target-arrow-shape": "none" } },
      { selector: "edge[kind = 'cross']", style: { "line-style": "dashed" } },
      { selector: ".found", style: { "border-width": 4, "border-color": "#f2b705",
        "font-weight": "bold", "z-index": 10 } },
      { selector: ".dim", style: { "opacity": 0.25 } },
      { selector: ".off", style: { "display": "none" } },
    ],
    layout: { name: "cose", animate: false, randomize: false, nodeRepulsion: 9000,
              idealEdgeLength: 70, numIter: 1500, padding: 30 },
  });
  window.brvGraph = cy; // for the browser tests and the curious, in the dev tools

  const find = document.getElementById("graph-find");
  const filters = ["domain", "tag", "maturity"].map(k => document.getElementById("graph-" + k));
  const count = document.getElementById("graph-count");

  function keeps(node) {
    const [domain, tag, maturity] = filters.map(f => f.value);
    if (domain && node.data("domain") !== domain) { return false; }
    if (tag && !(node.data("tags") || []).includes(tag)) { return false; }
    if (maturity && node.data("maturity") !== maturity) { return false; }
    return true;
  }

  function filter() {
    cy.batch(function () {
      cy.nodes().forEach(n => n.toggleClass("off", !keeps(n)));
    });
    const shown = cy.nodes().not(".off");
    count.textContent = shown.length + " of " + cy.nodes().length + " nodes";
    if (shown.length) { cy.fit(shown, 30); }
  }

  function search() {
    const words = find.value.trim().toLowerCase();
    const found = words ? cy.nodes().not(".off").filter(n =>
      n.data("label").toLowerCase().includes(words) || n.id().toLowerCase().includes(words))
      : cy.collection();
    cy.batch(function () {
      cy.elements().removeClass("found dim");
      if (words) {
        found.addClass("found");
        cy.elements().not(found).not(found.connectedEdges()).addClass("dim");
      }
    });
    if (found.length) {  // the node itself in the middle (its label hangs below it)
      const zoom = Math.max(cy.zoom(), 1.2);
      const at = found.first().position();
      cy.animate({ zoom: zoom, pan: { x: holder.clientWidth / 2 - at.x * zoom,
                                      y: holder.clientHeight / 2 - at.y * zoom } },
                 { duration: 200 });
    }
    count.textContent = words ? found.length + " found" : cy.nodes().not(".off").length +
      " of " + cy.nodes().length + " nodes";
    return found;
  }

  function open(node) {
    if (node && node.data("href")) { window.location.href = node.data("href"); }
  }

  filters.forEach(f => f.addEventListener("change", function () { filter(); search(); }));
  let wait = null;
  find.addEventListener("input", function () { clearTimeout(wait); wait = setTimeout(search, 120); });
  find.addEventListener("keydown", function (event) {
    if (event.key === "Enter") { event.preventDefault(); open(search().first()); }
  });
  const zoomBy = f => cy.zoom({ level: cy.zoom() * f,
    renderedPosition: { x: holder.clientWidth / 2, y: holder.clientHeight / 2 } });
  document.getElementById("graph-in").addEventListener("click", () => zoomBy(1.25));
  document.getElementById("graph-out").addEventListener("click", () => zoomBy(0.8));
  document.getElementById("graph-fit").addEventListener("click",
    () => cy.fit(cy.nodes().not(".off"), 30));
  cy.on("tap", "node", event => open(event.target));
  cy.on("mouseover", "node", () => { holder.classList.add("pointing"); });
  cy.on("mouseout", "node", () => { holder.classList.remove("pointing"); });
  filter();
  holder.dataset.ready = "1";
})();
