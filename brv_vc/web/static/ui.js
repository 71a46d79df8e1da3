// brv ui: search as you type, on the search page and in every page's header. Fetches
// /api/search (same ranking as `brv search`) and builds the result lists with DOM nodes and
// textContent only: no server text becomes HTML. Without script both forms still submit.
"use strict";
(function () {
  // the header's box: a short list under it after a pause in typing; arrows pick, Enter
  // opens the picked entry (or, with none picked, submits the form to the search page)
  const form = document.querySelector("header form.quick");
  const quick = form && form.querySelector("input[name=q]");
  if (!quick) { return; }
  const menu = document.createElement("ul");
  menu.id = "quick-results";
  menu.className = "quick-results";
  menu.hidden = true;
  form.appendChild(menu);
  let wait = null;
  let sent = 0;
  let picked = -1;

  function links() { return Array.from(menu.querySelectorAll("a")); }

  function pick(index) {
    const all = links();
    picked = all.length ? (index + all.length) % all.length : -1;
    all.forEach((a, i) => a.classList.toggle("picked", i === picked));
  }

  function fill(answer, query) {
    menu.replaceChildren();
    picked = -1;
    const hits = answer.ok ? answer.results : [];
    for (const hit of hits) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "/entry?path=" + encodeURIComponent(hit.path);
      a.textContent = hit.title || hit.path;
      const path = document.createElement("span");
      path.className = "path";
      path.textContent = " " + hit.path;
      a.appendChild(path);
      li.appendChild(a);
      menu.appendChild(li);
    }
    const all = document.createElement("li");
    all.className = "all";
    const more = document.createElement("a");
    more.href = "/search?q=" + encodeURIComponent(query);
    more.textContent = hits.length ? "all results →" :
      (answer.ok ? "no result" : answer.error.message);
    all.appendChild(more);
    menu.appendChild(all);
    menu.hidden = false;
  }

  async function ask() {
    const query = quick.value.trim();
    const mine = ++sent;
    if (!query) { menu.hidden = true; menu.replaceChildren(); return; }
    const reply = await fetch("/api/search?limit=8&q=" + encodeURIComponent(query),
                              { credentials: "same-origin" });
    const answer = await reply.json();
    if (mine === sent && quick.value.trim() === query) { fill(answer, query); }
  }

  quick.setAttribute("autocomplete", "off");
  quick.addEventListener("input", function () {
    clearTimeout(wait);
    wait = setTimeout(ask, 150);
  });
  quick.addEventListener("keydown", function (event) {
    if (menu.hidden) { return; }
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      pick(picked + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Enter" && picked >= 0) {
      event.preventDefault();
      window.location.href = links()[picked].href;
    } else if (event.key === "Escape") {
      menu.hidden = true;
    }
  });
  document.addEventListener("click", function (event) {
    if (!form.contains(event.target)) { menu.hidden = true; }
  });
})();

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
