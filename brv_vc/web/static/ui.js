// brv ui: search as you type. Fetches /api/search (same ranking as `brv search`) and
// builds the result list with DOM nodes and textContent only: no server text becomes HTML.
"use strict";
(function () {
  const box = document.getElementById("q");
  const list = document.getElementById("results");
  if (!box || !list) { return; }
  let timer = null;
  let asked = 0;

  function highlighted(text, terms) {
    // the excerpt as text nodes, every query term wrapped in <mark>
    const span = document.createElement("span");
    span.className = "excerpt";
    if (!terms.length) { span.textContent = text; return span; }
    const longest = terms.filter(t => t).sort((a, b) => b.length - a.length);
    if (!longest.length) { span.textContent = text; return span; }
    const escaped = longest.map(t => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const pattern = new RegExp("(" + escaped.join("|") + ")", "gi");
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      span.appendChild(document.createTextNode(text.slice(last, match.index)));
      const mark = document.createElement("mark");
      mark.textContent = match[0];
      span.appendChild(mark);
      last = match.index + match[0].length;
    }
    span.appendChild(document.createTextNode(text.slice(last)));
    return span;
  }

  function show(answer) {
    list.replaceChildren();
    const status = document.getElementById("status");
    if (!answer.ok) { status.textContent = answer.error.message; return; }
    status.textContent = answer.results.length + " result(s)" +
      (answer.out_of_domain ? " (the question looks outside this tree)" : "");
    for (const hit of answer.results) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "/entry?path=" + encodeURIComponent(hit.path);
      a.textContent = hit.title || hit.path;
      const path = document.createElement("span");
      path.className = "path";
      path.textContent = " [" + Math.round(hit.score * 100) + "%] " + hit.path;
      const marks = answer.highlight || answer.terms;
      li.append(a, path, document.createElement("br"), highlighted(hit.excerpt || "", marks));
      list.appendChild(li);
    }
  }

  async function run() {
    const query = box.value.trim();
    const mine = ++asked;
    if (!query) { list.replaceChildren(); return; }
    const url = "/api/search?q=" + encodeURIComponent(query);
    history.replaceState(null, "", "/search?q=" + encodeURIComponent(query));
    const reply = await fetch(url, { credentials: "same-origin" });
    const answer = await reply.json();
    if (mine === asked) { show(answer); }
  }

  box.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(run, 120);
  });
})();
