"use strict";
/*
 * Ohana review page: one self-contained HTML file to look at a dedupe's
 * clusters and decide on them (`ohana review`, README "Review the clusters").
 *
 * Private by construction: nothing is fetched, nothing is stored in the
 * browser (no localStorage, cookies, IndexedDB), and decisions leave only
 * through the export, a Blob the reviewer downloads. Contact values are
 * untrusted: they go into the page as text nodes only, never as HTML. The
 * Content-Security-Policy admits this script and the style by their SHA-256
 * and nothing else, so sizes of drawn bars are set through element.style
 * (CSSOM), never a style attribute.
 *
 * The data contract (version 1), written by ReviewPage.swift as the text
 * of the JSON script element #ohana-data, with every "<" as \u003c.
 * Columns ("struct of arrays"): members.name[i] is member i's name; missing
 * text is "".
 *
 *   format "ohana-review", version 1, title, inputs [file names],
 *   counts {contacts, clusters, members, pairs,   clusters of 2+ only; the last two
 *           refusedByCrossPairs?, refusedForSize?}  when the page ran its own dedupe
 *   comparisons ["given", "family", ...]          order of levels and parts
 *   prior      log2 prior odds of a match, or null
 *   sinceKnown true when clusters.changed compares with an earlier run
 *   members    {uid, name, given, family, org, birthday, source: [string],
 *               email, phone, address: [[string]]}
 *   clusters   {id: [uid], start, size: [int]    members start ..< start + size,
 *                                                the cluster's id contact first
 *               weakest: [number|null]           lowest weight of its pairs
 *               changed: [0|1]                   differs from the --since run
 *               pairStart, pairCount: [int]}     its pairs, contiguous
 *   levelNames [[string]]   per comparison, the names of its levels
 *   levelWeights [[number|null]] | null  per comparison and level, the
 *                           weight that level adds (null: parts per pair)
 *   keyNames   [string]     the blocking keys' names (bits of pairs.keys)
 *   pairs      {a, b: [member index], weight: [number],
 *               levels: [[int]]                  per comparison, into levelNames
 *               parts: [[number]|null] | null    per comparison; null: levelWeights
 *               adjust: [number|null],           weight = sum(parts) + adjust
 *               keys: [int]}                     shared blocking keys, bit i = keyNames[i]
 *
 * The page reads it once and keeps it as it is; everything else is small
 * state (the sort and page of the list, the open cluster, the reviewer's
 * decisions) from which the DOM is rebuilt piece by piece. Every action has
 * a key (the KEYS table near the end); stable hooks for tests: #search,
 * #cluster-list tr[data-cluster], #cluster-detail th[data-uid],
 * #waterfall [data-part][data-value] and [data-total], #status, #decisions,
 * #export, and body[data-ready="1"] once the page is usable.
 */
(() => {
  const started = performance.now();
  const PAGE_SIZE = 50;
  const MAX_PAIR_ROWS = 500;

  // ---------------------------------------------------------------- DOM helpers

  const $ = (id) => document.getElementById(id);

  /** A new element: props are attributes ("class", "data" for dataset, "on"
   *  for listeners); children are nodes or strings, strings become text. */
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "data") {
        for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) node.dataset[k] = String(v);
      }
      else if (key === "on") for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
      else if (key === "style") throw new Error("style attributes are refused by the CSP; use element.style");
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function announce(message) {
    $("status").textContent = message;
  }

  function fail(message) {
    announce(message);
    $("cluster-detail").prepend(el("p", { class: "error", role: "alert" }, message));
  }

  // ---------------------------------------------------------------- formatting and normalising

  const fmt = (x) => (typeof x === "number" && isFinite(x) ? x.toFixed(2) : "—");
  const signed = (x) => (x < 0 ? "-" : "+") + Math.abs(x).toFixed(2);
  const count = (n, one, many) => `${n.toLocaleString("en")} ${n === 1 ? one : many || one + "s"}`;
  const short = (id) => (id.length > 8 ? id.slice(0, 8) + "…" : id);
  const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

  /** Case- and accent-folded text, for search and for comparing values. */
  const fold = (s) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  const foldText = (s) => fold(s).replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  const digitsOf = (s) => s.replace(/\D+/g, "");

  /** Match probability of a log2 score (prior + weight). */
  function probability(score) {
    const p = 1 / (1 + Math.pow(2, -score));
    if (p >= 0.99995) return `p = ${p.toFixed(6)} (1 − p = ${(1 / (1 + Math.pow(2, score))).toExponential(1)})`;
    if (p <= 0.00005) return `p = ${p.toExponential(1)}`;
    return `p = ${p.toFixed(4)}`;
  }

  // ---------------------------------------------------------------- the data

  let DATA;
  try {
    const dataElement = $("ohana-data");
    DATA = JSON.parse(dataElement.textContent);
    // Read once: the text (tens of MB for a large book) is not needed again.
    dataElement.textContent = "";
  } catch (error) {
    fail("The page's data could not be read: " + error.message);
    return;
  }
  if (!DATA || DATA.format !== "ohana-review" || DATA.version !== 1) {
    fail("This page's data is not ohana-review version 1; it was written by another version of ohana.");
    return;
  }
  const parsedAt = performance.now();

  const M = DATA.members;
  const C = DATA.clusters;
  const P = DATA.pairs || {};
  const N_CLUSTERS = C.id.length;
  const COMPARISONS = DATA.comparisons || [];
  const PRIOR = typeof DATA.prior === "number" ? DATA.prior : null;
  const LEVEL_NAMES = DATA.levelNames || [];
  const LEVEL_WEIGHTS = DATA.levelWeights || null;
  const KEY_NAMES = DATA.keyNames || [];

  /** Pair j's level names, one per comparison. */
  function pairLevels(j) {
    const numbers = (P.levels && P.levels[j]) || [];
    return numbers.map((l, c) => (LEVEL_NAMES[c] && LEVEL_NAMES[c][l] !== undefined ? LEVEL_NAMES[c][l] : "?"));
  }

  /** Pair j's weight per comparison, or null when the data has none. */
  function pairParts(j) {
    if (P.parts) return P.parts[j] || null;
    if (!LEVEL_WEIGHTS || !P.levels || !P.levels[j]) return null;
    const out = P.levels[j].map((l, c) => (LEVEL_WEIGHTS[c] ? LEVEL_WEIGHTS[c][l] : null));
    return out.some((w) => typeof w !== "number") ? null : out;
  }

  /** Pair j's shared blocking keys. */
  function pairKeys(j) {
    const mask = (P.keys && P.keys[j]) || 0;
    const out = [];
    for (let bit = 0; bit < KEY_NAMES.length; bit++) {
      if (Math.floor(mask / 2 ** bit) % 2 === 1) out.push(KEY_NAMES[bit]);
    }
    return out;
  }
  const empty = (n, value) => new Array(n).fill(value);
  // Optional columns default to "not known", so a thinner file still opens.
  if (!C.weakest) C.weakest = empty(N_CLUSTERS, null);
  if (!C.changed) C.changed = empty(N_CLUSTERS, 0);
  if (!C.pairStart) C.pairStart = empty(N_CLUSTERS, 0);
  if (!C.pairCount) C.pairCount = empty(N_CLUSTERS, 0);
  for (const column of ["name", "given", "family", "org", "birthday", "source"]) {
    if (!M[column]) M[column] = empty(M.uid.length, "");
  }
  for (const column of ["email", "phone", "address"]) {
    if (!M[column]) M[column] = empty(M.uid.length, []);
  }

  /** Member indices of cluster k (contiguous, the cluster's id contact first). */
  function membersOf(k) {
    const out = [];
    for (let i = C.start[k], end = C.start[k] + C.size[k]; i < end; i++) out.push(i);
    return out;
  }

  /** Pair indices of cluster k. */
  function pairsOf(k) {
    const out = [];
    for (let j = C.pairStart[k], end = C.pairStart[k] + C.pairCount[k]; j < end; j++) out.push(j);
    return out;
  }

  /** A name to call member i by: its full name, else whatever it has. */
  function memberName(i) {
    const parts = `${M.given[i]} ${M.family[i]}`.trim();
    return M.name[i] || parts || M.org[i] || (M.email[i] || [])[0] || (M.phone[i] || [])[0] || M.uid[i];
  }

  const clusterName = (k) => memberName(C.start[k]);
  const clusterLabel = (k) => `cluster ${short(C.id[k])}`;

  // ---------------------------------------------------------------- state

  const state = {
    sortKey: "order",   // a key of SORTS
    sortDir: 1,         // 1 ascending, -1 descending
    sorted: null,       // Int32Array: every cluster, in sort order
    query: "",          // the search as typed
    view: null,         // Int32Array: the clusters listed (sorted and matching)
    cursor: 0,          // position in view of the highlighted row
    open: -1,           // the cluster shown in detail
    member: 0,          // position (in the open cluster) of the current member
    selected: new Set(), // member indices selected for a split
    pair: -1,           // the pair shown in the waterfall
    marked: null,       // {cluster, uids, label} for join / keep apart
    shortcuts: true,
    unexported: false,  // decisions made since the last export
  };

  /** The reviewer's decisions, in order: {record, label, clusters, removed}.
   *  record is what is exported; removed (uids) leave the cluster they were
   *  taken from, for the decisions that follow on it. */
  const decisions = [];

  // ---------------------------------------------------------------- sorting

  let nameKeys = null; // folded first-member names, built on the first sort by name

  const SORTS = {
    order: { label: "cluster order", first: 1 },
    size: { label: "size", first: -1, key: (k) => C.size[k] },
    weakest: { label: "weakest link", first: 1, key: (k) => C.weakest[k] },
    changed: { label: "changed since the last run", first: -1, key: (k) => (C.changed[k] ? 1 : 0) },
    name: {
      label: "first member's name",
      first: 1,
      key: (k) => {
        if (!nameKeys) nameKeys = Array.from({ length: N_CLUSTERS }, (_, c) => foldText(clusterName(c)));
        return nameKeys[k];
      },
    },
  };

  /** Every cluster in the current sort order; ties keep the data's order and
   *  unknown keys (a weakest link of null) go last either way. */
  function sortAll() {
    const order = new Int32Array(N_CLUSTERS);
    for (let k = 0; k < N_CLUSTERS; k++) order[k] = k;
    const sort = SORTS[state.sortKey];
    const dir = state.sortDir;
    if (!sort.key) return dir < 0 ? order.reverse() : order;
    const keys = new Array(N_CLUSTERS);
    for (let k = 0; k < N_CLUSTERS; k++) keys[k] = sort.key(k);
    return order.sort((a, b) => {
      const x = keys[a];
      const y = keys[b];
      if (x === y) return a - b;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * dir;
    });
  }

  function sortBy(key) {
    const sort = SORTS[key];
    state.sortDir = state.sortKey === key ? -state.sortDir : sort.first;
    state.sortKey = key;
    state.sorted = sortAll();
    filter();
    state.cursor = 0;
    renderList();
    const how = key === "weakest" && state.sortDir > 0 ? "riskiest first"
      : key === "changed" && state.sortDir < 0 ? "changed first"
        : state.sortDir > 0 ? "ascending" : "descending";
    announce(`Sorted by ${sort.label}, ${how}`);
  }

  // ---------------------------------------------------------------- search

  // One folded string and one string of phone digits per cluster, built once
  // on the first search (or when the search box gets focus).
  let haystack = null;
  let phoneDigits = null;

  function buildSearchIndex() {
    if (haystack) return;
    const t0 = performance.now();
    haystack = new Array(N_CLUSTERS);
    phoneDigits = new Array(N_CLUSTERS);
    for (let k = 0; k < N_CLUSTERS; k++) {
      const text = [];
      const digits = [];
      for (let i = C.start[k], end = i + C.size[k]; i < end; i++) {
        text.push(M.name[i], M.given[i], M.family[i], M.org[i], M.uid[i]);
        for (const email of M.email[i]) text.push(email);
        for (const phone of M.phone[i]) {
          text.push(phone);
          digits.push(digitsOf(phone));
        }
      }
      haystack[k] = fold(text.join("\n"));
      phoneDigits[k] = digits.join("|");
    }
    document.body.dataset.indexMs = String(Math.round(performance.now() - t0));
  }

  /** Narrow the sorted clusters to those matching the query: a folded
   *  substring of a member's name, e-mail, phone or uid, or (for a query of
   *  phone characters with 3 digits or more) a substring of a phone's digits. */
  function filter() {
    const query = fold(state.query.trim());
    if (!query) {
      state.view = state.sorted;
      return;
    }
    buildSearchIndex();
    const digits = /^[\d\s+\-().\/]+$/.test(query) ? digitsOf(query) : "";
    const byDigits = digits.length >= 3;
    const sorted = state.sorted;
    const out = new Int32Array(sorted.length);
    let n = 0;
    for (let j = 0; j < sorted.length; j++) {
      const k = sorted[j];
      if (haystack[k].includes(query) || (byDigits && phoneDigits[k].includes(digits))) out[n++] = k;
    }
    state.view = out.subarray(0, n);
  }

  let searchTimer = 0;

  function runSearch() {
    clearTimeout(searchTimer);
    const input = $("search");
    if (input.value === state.query && state.view) return;
    const t0 = performance.now();
    state.query = input.value;
    filter();
    state.cursor = 0;
    renderList();
    const ms = Math.round(performance.now() - t0);
    $("result-count").dataset.ms = String(ms);
    $("result-count").dataset.query = state.query;
    if (state.query.trim()) {
      announce(`${count(state.view.length, "cluster")} match “${state.query.trim()}”`);
    } else {
      announce(`Search cleared; ${count(N_CLUSTERS, "cluster")}`);
    }
  }

  // ---------------------------------------------------------------- the cluster list

  /** Number of decisions touching each cluster, for the list's last column. */
  function decisionsByCluster() {
    const byCluster = new Map();
    for (const d of decisions) {
      for (const k of d.clusters) byCluster.set(k, (byCluster.get(k) || 0) + 1);
    }
    return byCluster;
  }

  function renderList() {
    const view = state.view;
    const pages = Math.max(1, Math.ceil(view.length / PAGE_SIZE));
    state.cursor = Math.max(0, Math.min(state.cursor, view.length - 1));
    const page = Math.floor(state.cursor / PAGE_SIZE);
    const first = page * PAGE_SIZE;
    const last = Math.min(view.length, first + PAGE_SIZE);
    const reviewed = decisionsByCluster();
    const rows = [];
    for (let pos = first; pos < last; pos++) rows.push(listRow(view[pos], pos, reviewed.get(view[pos]) || 0));
    $("cluster-list").tBodies[0].replaceChildren(...rows);

    const shown = view.length ? `clusters ${(first + 1).toLocaleString("en")}–${last.toLocaleString("en")} of ${view.length.toLocaleString("en")}` : "no clusters";
    $("page-info").textContent = `Page ${page + 1} of ${pages.toLocaleString("en")} · ${shown}`;
    $("list-caption").textContent = `Clusters, page ${page + 1} of ${pages}, sorted by ${SORTS[state.sortKey].label}`;
    $("prev-page").disabled = page === 0;
    $("next-page").disabled = page >= pages - 1;
    $("result-count").textContent = state.query.trim()
      ? `${count(view.length, "cluster")} of ${N_CLUSTERS.toLocaleString("en")} match`
      : `${count(N_CLUSTERS, "cluster")} of 2 or more contacts`;
    for (const th of document.querySelectorAll("#cluster-list th[data-sort]")) {
      if (th.dataset.sort === state.sortKey) th.setAttribute("aria-sort", state.sortDir > 0 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
  }

  function listRow(k, pos, reviewedCount) {
    const open = () => {
      state.cursor = pos;
      openCluster(k, true);
    };
    const weakest = C.weakest[k];
    const row = el("tr", {
      data: { cluster: C.id[k], pos },
      class: [pos === state.cursor ? "cursor" : "", k === state.open ? "open" : ""].join(" ").trim() || null,
      "aria-current": k === state.open ? "true" : null,
      on: { click: open },
    },
      el("td", null, el("button", {
        type: "button", class: "open-btn mono", title: `Open cluster ${C.id[k]} (Enter)`,
        "aria-label": `Open cluster ${short(C.id[k])}, ${clusterName(k)}`,
        on: { click: (event) => { event.stopPropagation(); open(); } },
      }, short(C.id[k]))),
      el("td", { class: "num" }, String(C.size[k])),
      el("td", { class: "num" }, weakest === null || weakest === undefined ? "—" : fmt(weakest)),
      el("td", C.changed[k] ? { class: "changed-yes" } : null, C.changed[k] ? "● yes" : "no"),
      el("td", null, clusterName(k)),
      el("td", reviewedCount ? { title: count(reviewedCount, "decision") } : null, reviewedCount ? `✓ ${reviewedCount}` : "—"));
    return row;
  }

  /** Move the highlighted row by delta (j/k), across pages. */
  function moveCursor(delta) {
    if (!state.view.length) return;
    state.cursor = Math.max(0, Math.min(state.view.length - 1, state.cursor + delta));
    renderList();
    const row = document.querySelector("#cluster-list tr.cursor");
    if (row) row.scrollIntoView({ block: "nearest" });
    const k = state.view[state.cursor];
    announce(`${state.cursor + 1} of ${state.view.length.toLocaleString("en")}: ${clusterLabel(k)}, ${clusterName(k)}, ${count(C.size[k], "member")} (Enter opens)`);
  }

  function turnPage(delta) {
    const pages = Math.max(1, Math.ceil(state.view.length / PAGE_SIZE));
    const page = Math.floor(state.cursor / PAGE_SIZE) + delta;
    if (page < 0 || page >= pages) {
      announce(delta > 0 ? "This is the last page" : "This is the first page");
      return;
    }
    state.cursor = page * PAGE_SIZE;
    renderList();
    announce(`Page ${page + 1} of ${pages}`);
  }

  function openCursor() {
    if (!state.view.length) {
      announce("No cluster matches");
      return;
    }
    openCluster(state.view[state.cursor], true);
  }

  // ---------------------------------------------------------------- the open cluster

  /** Uids that decisions took out of cluster k (take out, split). */
  function removedFrom(k) {
    const removed = new Set();
    for (const d of decisions) if (d.removed && d.clusters[0] === k) for (const u of d.removed) removed.add(u);
    return removed;
  }

  /** Member indices still in cluster k after this session's decisions. */
  function activeMembers(k) {
    const removed = removedFrom(k);
    return membersOf(k).filter((i) => !removed.has(M.uid[i]));
  }

  function openCluster(k, focusMember) {
    if (k !== state.open) {
      state.open = k;
      state.member = 0;
      state.selected.clear();
      state.pair = weakestPair(k);
    }
    renderList();
    renderDetail();
    if (focusMember) focusMemberHeader(state.member);
    announce(`Opened ${clusterLabel(k)}: ${clusterName(k)}, ${count(C.size[k], "member")}`);
  }

  function weakestPair(k) {
    let best = -1;
    for (const j of pairsOf(k)) if (best < 0 || P.weight[j] < P.weight[best]) best = j;
    return best;
  }

  /** The member fields shown side by side, each with the normalisation under
   *  which two members' values count as the same (null: not compared). */
  const FIELDS = [
    { key: "name", label: "Name", same: foldText },
    { key: "given", label: "Given name", same: foldText },
    { key: "family", label: "Family name", same: foldText },
    { key: "org", label: "Organisation", same: foldText },
    { key: "email", label: "E-mail", same: (s) => s.trim().toLowerCase() },
    { key: "phone", label: "Phone", same: (s) => digitsOf(s).slice(-9) },
    { key: "address", label: "Address", same: foldText },
    { key: "birthday", label: "Birthday", same: digitsOf },
    { key: "uid", label: "uid", same: null, mono: true },
    { key: "source", label: "Source", same: null },
  ];

  const valuesOf = (field, i) => {
    const v = M[field.key][i];
    return (Array.isArray(v) ? v : [v]).filter((s) => typeof s === "string" && s.trim() !== "");
  };

  /** For one field of the members: per member, per value, "same" when
   *  another member has that value too (normalised), else "diff". */
  function agreement(field, members) {
    const holders = new Map(); // normalised value -> Set of members holding it
    const norms = members.map((i) => valuesOf(field, i).map((v) => {
      const n = field.same(v);
      if (n) {
        if (!holders.has(n)) holders.set(n, new Set());
        holders.get(n).add(i);
      }
      return n;
    }));
    return norms.map((list) => list.map((n) => (n && holders.get(n).size > 1 ? "same" : "diff")));
  }

  const MARKS = {
    same: ["agree-same", "✓ same"],
    diff: ["agree-diff", "✗ differs"],
    missing: ["agree-missing", "— missing"],
  };
  const mark = (kind) => el("span", { class: `mark ${MARKS[kind][0]}` }, MARKS[kind][1]);

  function memberState(k, pos, removed) {
    const i = C.start[k] + pos;
    const words = [];
    if (pos === state.member) words.push("▸ current");
    if (pos === 0) words.push("cluster id");
    if (removed.has(M.uid[i])) words.push("taken out");
    if (state.selected.has(i)) words.push("☑ selected for split");
    return words.join(" · ");
  }

  function renderDetail() {
    const k = state.open;
    const hadFocus = document.activeElement && document.activeElement.classList.contains("member");
    for (const button of document.querySelectorAll("#actions button")) button.disabled = k < 0;
    if (k < 0) return;

    const members = membersOf(k);
    const removed = removedFrom(k);
    $("detail-title").textContent = `Cluster ${short(C.id[k])}: ${clusterName(k)}`;
    const facts = [count(C.size[k], "member"), count(C.pairCount[k], "accepted pair")];
    if (C.weakest[k] !== null && C.weakest[k] !== undefined) facts.push(`weakest link ${fmt(C.weakest[k])}`);
    // Said only when the data knows an earlier run (--since, a store).
    if (DATA.sinceKnown) facts.push(C.changed[k] ? "changed since the last run" : "unchanged since the last run");
    if (removed.size) facts.push(`${count(removed.size, "member")} taken out in this review`);
    $("detail-summary").replaceChildren(facts.join(" · "), " · id ", el("code", null, C.id[k]));

    // Members side by side: one column per member, one row per field.
    const head = el("tr", null, el("th", { scope: "col" }, "Field"),
      members.map((i, pos) => el("th", {
        scope: "col", tabindex: "0", class: "member",
        data: { uid: M.uid[i], pos },
        title: "Current member: x takes it out, Space selects it for a split",
        on: {
          click: () => focusMemberHeader(pos),
          focus: () => setCurrentMember(pos),
        },
      }, el("span", { class: "member-name" }, `${pos + 1}. ${memberName(i)}`),
      el("span", { class: "member-state" }, memberState(k, pos, removed)))));
    const body = FIELDS.map((field) => {
      const agree = field.same ? agreement(field, members) : null;
      return el("tr", { data: { field: field.key } }, el("th", { scope: "row" }, field.label),
        members.map((i, m) => {
          const values = valuesOf(field, i);
          const cell = el("td", { class: memberClass(i, removed) });
          if (!values.length) cell.append(el("span", { class: "value" }, mark("missing")));
          values.forEach((value, v) => cell.append(el("span", { class: field.mono ? "value mono" : "value" },
            agree ? mark(agree[m][v]) : null, value)));
          return cell;
        }));
    });
    $("members").replaceChildren(el("table", { "aria-label": `Members of cluster ${short(C.id[k])}` },
      el("thead", null, head), el("tbody", null, body)));
    refreshMemberHeaders();
    renderPairs();
    renderMarked();
    if (hadFocus) focusMemberHeader(state.member);
  }

  function memberClass(i, removed) {
    const classes = [];
    if (removed.has(M.uid[i])) classes.push("out");
    if (state.selected.has(i)) classes.push("selected");
    return classes.join(" ") || null;
  }

  /** Current / selected / taken out, on the member headers, in words. */
  function refreshMemberHeaders() {
    const k = state.open;
    if (k < 0) return;
    const removed = removedFrom(k);
    for (const th of document.querySelectorAll("#members th.member")) {
      const pos = Number(th.dataset.pos);
      const i = C.start[k] + pos;
      th.classList.toggle("cursor", pos === state.member);
      th.classList.toggle("selected", state.selected.has(i));
      th.classList.toggle("out", removed.has(M.uid[i]));
      th.querySelector(".member-state").textContent = memberState(k, pos, removed);
    }
  }

  function setCurrentMember(pos) {
    if (pos === state.member) return;
    state.member = pos;
    refreshMemberHeaders();
  }

  function focusMemberHeader(pos) {
    const th = document.querySelector(`#members th.member[data-pos="${pos}"]`);
    if (!th) return;
    setCurrentMember(pos);
    th.focus();
  }

  function moveMember(delta) {
    if (state.open < 0) return;
    const pos = Math.max(0, Math.min(C.size[state.open] - 1, state.member + delta));
    focusMemberHeader(pos);
  }

  // ---------------------------------------------------------------- pairs and the waterfall

  function renderPairs() {
    const k = state.open;
    const pairs = pairsOf(k);
    if (!pairs.length) {
      $("pairs").replaceChildren(el("p", null, "No accepted pairs are known for this cluster (no --explain data)."));
      renderWaterfall();
      return;
    }
    const weakest = weakestPair(k);
    const rows = pairs.slice(0, MAX_PAIR_ROWS).map((j, n) => {
      const current = j === state.pair;
      return el("tr", {
        class: current ? "current" : null,
        data: { pair: j, a: M.uid[P.a[j]], b: M.uid[P.b[j]] },
        on: { click: () => selectPair(j) },
      },
        el("td", null, el("button", {
          type: "button", "aria-pressed": current ? "true" : "false",
          title: "Show why this pair matched ([ and ] move)",
          on: { click: (event) => { event.stopPropagation(); selectPair(j); } },
        }, `${current ? "▸ " : ""}#${n + 1}`)),
        el("td", null, memberName(P.a[j])),
        el("td", null, memberName(P.b[j])),
        el("td", { class: "num" }, fmt(P.weight[j]), j === weakest ? " (weakest)" : ""),
        el("td", { class: "keys-list" }, pairKeys(j).join(", ")));
    });
    const table = el("table", { "aria-label": `Accepted pairs of cluster ${short(C.id[k])}` },
      el("thead", null, el("tr", null,
        el("th", { scope: "col" }, "Pair"), el("th", { scope: "col" }, "Member A"), el("th", { scope: "col" }, "Member B"),
        el("th", { scope: "col", class: "num" }, "Weight"), el("th", { scope: "col" }, "Shared keys"))),
      el("tbody", null, rows));
    const more = pairs.length > MAX_PAIR_ROWS ? el("p", { class: "hint" }, `Showing the first ${MAX_PAIR_ROWS} of ${pairs.length} pairs.`) : null;
    $("pairs").replaceChildren(table, more || "");
    renderWaterfall();
  }

  function selectPair(j) {
    state.pair = j;
    renderPairs();
    announce(`Pair ${memberName(P.a[j])} – ${memberName(P.b[j])}: weight ${fmt(P.weight[j])}`);
  }

  function movePair(delta) {
    if (state.open < 0) return;
    const pairs = pairsOf(state.open).slice(0, MAX_PAIR_ROWS);
    if (!pairs.length) return;
    const at = pairs.indexOf(state.pair);
    selectPair(pairs[Math.max(0, Math.min(pairs.length - 1, at + delta))]);
  }

  /** The selected pair's weight, built up from the prior: one bar per
   *  comparison, then the name-frequency adjustment, then the total. Bars
   *  are positioned on a shared scale through element.style. */
  function renderWaterfall() {
    const j = state.pair;
    const box = $("waterfall");
    if (j < 0) {
      box.replaceChildren(el("p", null, "No pair selected."));
      return;
    }
    const parts = pairParts(j);
    const levels = pairLevels(j);
    const adjust = P.adjust && typeof P.adjust[j] === "number" ? P.adjust[j] : 0;
    const weight = P.weight[j];

    const steps = [];
    let at = 0;
    const step = (part, label, value, kind, level) => {
      steps.push({ part, label, value, kind, level, from: at, to: at + value });
      at += value;
    };
    if (PRIOR !== null) step("prior", `prior ${signed(PRIOR)}`, PRIOR, "prior");
    COMPARISONS.forEach((name, c) => {
      const value = parts ? Number(parts[c]) || 0 : 0;
      const level = levels[c] === undefined ? "?" : levels[c];
      step(name, `${name}: ${level} ${signed(value)}`, value, value < 0 ? "neg" : "pos", level);
    });
    step("adjust", `name frequency ${signed(adjust)}`, adjust, adjust < 0 ? "neg" : "pos");
    const sum = at - (PRIOR === null ? 0 : PRIOR);

    let lo = 0;
    let hi = 0;
    for (const s of steps) {
      lo = Math.min(lo, s.from, s.to);
      hi = Math.max(hi, s.from, s.to);
    }
    if (hi - lo < 1e-9) hi = lo + 1;
    const x = (v) => ((v - lo) / (hi - lo)) * 100;

    const bar = (from, to, kind) => {
      const track = el("div", { class: "wf-track", "aria-hidden": "true" });
      const zero = el("div", { class: "wf-zero" });
      zero.style.left = `${x(0)}%`;
      const fill = el("div", { class: `wf-bar ${kind}` });
      fill.style.left = `${x(Math.min(from, to))}%`;
      fill.style.width = `${Math.abs(x(to) - x(from))}%`;
      track.append(zero, fill);
      return track;
    };
    const rows = steps.map((s) => el("div", {
      class: "wf-row", data: { part: s.part, value: s.value, level: s.level },
    }, el("span", { class: "wf-label" }, s.label), bar(s.from, s.to, s.kind),
    el("span", { class: "wf-value" }, signed(s.value))));
    const total = PRIOR === null ? weight : PRIOR + weight;
    rows.push(el("div", { class: "wf-row total-row" },
      el("span", { class: "wf-label" }, PRIOR === null ? "weight" : "prior + weight"),
      bar(0, total, "total"), el("span", { class: "wf-value" }, fmt(total))));

    const sumLine = el("p", { class: "wf-sum", data: { total: weight } }, `weight = sum of parts = ${fmt(weight)}`);
    const pLine = el("p", { class: "wf-sum" }, PRIOR === null
      ? "No prior in the data, so no match probability."
      : `match probability from prior + weight (${fmt(total)}): ${probability(total)}`);
    const notes = [];
    if (!parts) notes.push(el("p", { class: "error" }, "This pair has no part weights in the data; only its levels are known."));
    else if (Math.abs(sum - weight) > 0.011) {
      notes.push(el("p", { class: "error" }, `The parts add up to ${fmt(sum)}, not to the weight ${fmt(weight)}.`));
    }
    box.replaceChildren(
      el("p", { class: "hint" }, `${memberName(P.a[j])} and ${memberName(P.b[j])}. Log2 weights, each bar starting where the one above ends: + (green, rightwards) is evidence for a match, - (red, leftwards) against; the dotted line is 0.`),
      el("div", { class: "wf", role: "group", "aria-label": "Weight of the pair, part by part" }, rows),
      sumLine, pLine, notes);
  }

  // ---------------------------------------------------------------- decisions

  /** The earlier decision that record contradicts directly, if any: a
   *  "different" between contacts that a "same" united, or the reverse.
   *  (ohana dedupe would skip the later one; the page refuses it.) */
  function contradiction(record) {
    const meets = (list, set) => list.some((u) => set.has(u));
    for (let n = 0; n < decisions.length; n++) {
      const d = decisions[n].record;
      if (record.kind === "different" && d.kind === "same") {
        const same = new Set(d.uids);
        if (meets(record.uids, same) && meets(record.from, same)) return n;
      } else if (record.kind === "same" && d.kind === "different") {
        const same = new Set(record.uids);
        if (meets(d.uids, same) && meets(d.from, same)) return n;
      }
    }
    return -1;
  }

  /** Record a decision, unless it contradicts an earlier one: the note and
   *  the time are added here, and the selection is spent. */
  function decide(record, label, clusters, removed) {
    const clash = contradiction(record);
    if (clash >= 0) {
      announce(`Not recorded: this contradicts decision ${clash + 1} (${decisions[clash].label}); undo that one first`);
      return;
    }
    const note = $("note").value.trim();
    record.time = isoNow();
    if (note) record.note = note;
    $("note").value = "";
    state.selected.clear();
    decisions.push({ record, label, clusters, removed: removed || null });
    state.unexported = true;
    afterDecisions(`${label}; ${count(decisions.length, "decision")}`);
  }

  function afterDecisions(message) {
    renderDecisions();
    renderList();
    renderDetail();
    announce(message);
  }

  const uidsOf = (members) => members.map((i) => M.uid[i]);
  const namesOf = (members) => members.map(memberName).join(", ");

  /** The open cluster, or a message when none is. */
  function openOrSay() {
    if (state.open < 0) announce("Open a cluster first (Enter on a row of the list)");
    return state.open;
  }

  function confirmCluster() {
    const k = openOrSay();
    if (k < 0) return;
    const members = activeMembers(k);
    if (members.length < 2) return announce("Nothing to confirm: fewer than 2 members are left in this cluster");
    decide({ kind: "same", uids: uidsOf(members) }, `Confirmed ${clusterLabel(k)} (${count(members.length, "member")})`, [k]);
  }

  function takeOut() {
    const k = openOrSay();
    if (k < 0) return;
    const i = C.start[k] + state.member;
    const active = activeMembers(k);
    if (!active.includes(i)) return announce(`${memberName(i)} is already out of ${clusterLabel(k)}`);
    const rest = active.filter((m) => m !== i);
    if (!rest.length) return announce(`${memberName(i)} is the last member left`);
    decide({ kind: "different", uids: [M.uid[i]], from: uidsOf(rest) },
      `Took ${memberName(i)} out of ${clusterLabel(k)}`, [k], [M.uid[i]]);
  }

  function toggleSelect() {
    const k = openOrSay();
    if (k < 0) return;
    const i = C.start[k] + state.member;
    if (!activeMembers(k).includes(i)) return announce(`${memberName(i)} is already out of ${clusterLabel(k)}`);
    if (state.selected.has(i)) state.selected.delete(i);
    else state.selected.add(i);
    renderDetail();
    announce(`${state.selected.has(i) ? "Selected" : "Unselected"} ${memberName(i)}; ${state.selected.size} selected for a split (s splits)`);
  }

  /** The open cluster's members a decision is about: the selected ones if
   *  any, else all still in it. */
  function chosenMembers(k) {
    const active = activeMembers(k);
    const selected = active.filter((i) => state.selected.has(i));
    return selected.length ? selected : active;
  }

  function split() {
    const k = openOrSay();
    if (k < 0) return;
    const active = activeMembers(k);
    const chosen = active.filter((i) => state.selected.has(i));
    const rest = active.filter((i) => !state.selected.has(i));
    if (!chosen.length) return announce("Select members first (Space on a member), then split (s)");
    if (!rest.length) return announce("All members are selected: leave at least one in the cluster");
    decide({ kind: "different", uids: uidsOf(chosen), from: uidsOf(rest) },
      `Split ${count(chosen.length, "member")} (${namesOf(chosen)}) off ${clusterLabel(k)}`, [k], uidsOf(chosen));
  }

  function markCluster() {
    const k = openOrSay();
    if (k < 0) return;
    const chosen = chosenMembers(k);
    const some = chosen.length < activeMembers(k).length;
    if (state.marked && state.marked.cluster === k && !some) {
      state.marked = null;
      renderMarked();
      return announce(`Unmarked ${clusterLabel(k)}`);
    }
    const label = some ? `${namesOf(chosen)} of ${clusterLabel(k)}` : `${clusterLabel(k)} (${clusterName(k)}, ${count(chosen.length, "member")})`;
    state.marked = { cluster: k, uids: uidsOf(chosen), label };
    state.selected.clear();
    renderDetail();
    announce(`Marked ${label}; open another cluster, then J joins it, a keeps it apart`);
  }

  function renderMarked() {
    const box = $("marked-info");
    if (!state.marked) box.replaceChildren("Nothing marked: m marks this cluster for a join (J) or keep apart (a).");
    else box.replaceChildren("Marked: ", el("span", { class: "marked" }, state.marked.label));
  }

  function joinWithMarked() {
    const k = openOrSay();
    if (k < 0) return;
    const marked = state.marked;
    if (!marked) return announce("Mark a cluster first (m), then open another and join (J)");
    if (marked.cluster === k) return announce("The marked cluster is this one: open another cluster to join, or confirm this one (c)");
    const here = uidsOf(chosenMembers(k));
    const uids = [...new Set([...marked.uids, ...here])];
    decide({ kind: "same", uids }, `Joined ${marked.label} with ${clusterLabel(k)}`, [marked.cluster, k]);
  }

  function keepApart() {
    const k = openOrSay();
    if (k < 0) return;
    const marked = state.marked;
    if (!marked) return announce("Mark a cluster first (m), then open another and keep apart (a)");
    const here = uidsOf(chosenMembers(k)).filter((u) => !marked.uids.includes(u));
    if (!here.length) return announce("Nothing to keep apart: these are the marked contacts themselves");
    const removed = marked.cluster === k ? marked.uids : null;
    decide({ kind: "different", uids: marked.uids.slice(), from: here },
      `Kept ${marked.label} apart from ${clusterLabel(k)}`, [marked.cluster, k].filter((c, n, a) => a.indexOf(c) === n), removed);
  }

  function undo(index) {
    if (!decisions.length) return announce("No decision to undo");
    const at = index === undefined ? decisions.length - 1 : index;
    const fromList = $("decisions").contains(document.activeElement);
    const [gone] = decisions.splice(at, 1);
    state.unexported = decisions.length > 0;
    afterDecisions(`Undid: ${gone.label}; ${count(decisions.length, "decision")}`);
    // Undone from its own button (now gone): focus stays in the list.
    if (fromList) {
      const buttons = $("decisions").querySelectorAll("button");
      (buttons[Math.min(at, buttons.length - 1)] || $("export")).focus();
    }
  }

  function renderDecisions() {
    $("decision-count").textContent = `(${decisions.length})`;
    $("undo").disabled = !decisions.length;
    $("decisions").replaceChildren(...decisions.map((d, n) => el("li", { data: { kind: d.record.kind } },
      d.label, ` (${d.record.time.slice(11, 19)} UTC)`,
      el("button", {
        type: "button", title: "Undo this decision", "aria-label": `Undo decision ${n + 1}: ${d.label}`,
        on: { click: () => undo(n) },
      }, "Undo"),
      d.record.note ? el("span", { class: "decision-note" }, `Note: ${d.record.note}`) : null)));
  }

  /** Download the decisions as decisions.ndjson: a Blob and an <a download>. */
  function exportDecisions() {
    if (!decisions.length) return announce("No decisions to export yet");
    const text = decisions.map((d) => JSON.stringify(d.record) + "\n").join("");
    const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
    const link = el("a", { href: url, download: "decisions.ndjson", hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    state.unexported = false;
    announce(`Exported ${count(decisions.length, "decision")} to decisions.ndjson`);
  }

  // ---------------------------------------------------------------- keyboard

  const KEYS = {
    "/": () => { $("search").focus(); $("search").select(); },
    j: () => moveCursor(1),
    k: () => moveCursor(-1),
    Enter: openCursor,
    n: () => turnPage(1),
    p: () => turnPage(-1),
    1: () => sortBy("order"),
    2: () => sortBy("size"),
    3: () => sortBy("weakest"),
    4: () => sortBy("changed"),
    5: () => sortBy("name"),
    ArrowRight: () => moveMember(1),
    ArrowLeft: () => moveMember(-1),
    "[": () => movePair(-1),
    "]": () => movePair(1),
    c: confirmCluster,
    x: takeOut,
    " ": toggleSelect,
    s: split,
    m: markCluster,
    J: joinWithMarked,
    a: keepApart,
    u: () => undo(),
    e: exportDecisions,
    "?": toggleHelp,
    Escape: escape,
  };

  const isTyping = (t) => t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || t.isContentEditable
    || (t instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit", "reset"].includes(t.type));

  function onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (isTyping(target)) {
      if (target.id === "search" && event.key === "Enter") {
        event.preventDefault();
        runSearch();
        openCursor();
      } else if (target.id === "search" && event.key === "Escape") {
        // Esc clears the search, a second Esc leaves the box for the shortcuts.
        event.preventDefault();
        if (target.value) {
          target.value = "";
          runSearch();
        } else {
          target.blur();
        }
      } else if (target.id === "note" && event.key === "Escape") {
        target.blur();
      }
      return;
    }
    if (!state.shortcuts) return;
    // Enter and Space on a button, link or checkbox keep their own meaning.
    if ((event.key === "Enter" || event.key === " ") && target.closest("button, a, summary, input, select")) return;
    // Letters by the Shift key, not by Caps Lock: "J" (join) is Shift+j only.
    let key = event.key;
    if (key.length === 1 && key.toLowerCase() !== key.toUpperCase()) {
      key = event.shiftKey ? key.toUpperCase() : key.toLowerCase();
    }
    const action = KEYS[key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  function toggleHelp() {
    const help = $("help");
    help.open = !help.open;
    if (help.open) help.scrollIntoView({ block: "nearest" });
    announce(help.open ? "Keys shown" : "Keys hidden");
  }

  function escape() {
    if (state.selected.size) {
      state.selected.clear();
      renderDetail();
      return announce("Selection cleared");
    }
    if ($("search").value) {
      $("search").value = "";
      runSearch();
    }
  }

  // ---------------------------------------------------------------- wiring and start

  function start() {
    $("title").textContent = DATA.title || "Ohana review";
    const counts = DATA.counts || {};
    const changed = C.changed.reduce((n, c) => n + (c ? 1 : 0), 0);
    const facts = [];
    if (typeof counts.contacts === "number") facts.push(count(counts.contacts, "contact"));
    facts.push(`${count(N_CLUSTERS, "cluster")} of 2 or more`, count(M.uid.length, "member"), count(P.weight ? P.weight.length : 0, "accepted pair"));
    if (changed) facts.push(`${changed.toLocaleString("en")} changed since the last run`);
    // What the chaining guard refused (a run of the page's own): by the
    // cross pairs of the clusters a pair would join, or for the size cap.
    if (typeof counts.refusedByCrossPairs === "number" && counts.refusedByCrossPairs + counts.refusedForSize > 0) {
      facts.push(`${count(counts.refusedByCrossPairs + counts.refusedForSize, "accepted pair")} refused by the chaining guard ` +
        `(${counts.refusedByCrossPairs.toLocaleString("en")} by the cross pairs, ${counts.refusedForSize.toLocaleString("en")} for the cluster cap)`);
    }
    $("summary").textContent = facts.join(" · ");

    document.addEventListener("keydown", onKey);
    $("shortcuts").checked = true; // on by default, whatever the browser restored
    const search = $("search");
    search.addEventListener("input", () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(runSearch, 120);
    });
    // Build the search strings while the reviewer starts typing.
    search.addEventListener("focus", () => setTimeout(buildSearchIndex, 0), { once: true });
    $("shortcuts").addEventListener("change", (event) => {
      state.shortcuts = event.target.checked;
      announce(`Keyboard shortcuts ${state.shortcuts ? "on" : "off"}`);
    });
    for (const button of document.querySelectorAll("#cluster-list th button[data-sort]")) {
      button.addEventListener("click", () => sortBy(button.dataset.sort));
    }
    $("prev-page").addEventListener("click", () => turnPage(-1));
    $("next-page").addEventListener("click", () => turnPage(1));
    $("undo").addEventListener("click", () => undo());
    $("export").addEventListener("click", exportDecisions);
    const actions = {
      confirm: confirmCluster, takeOut, select: toggleSelect, split, mark: markCluster, join: joinWithMarked, apart: keepApart,
    };
    for (const button of document.querySelectorAll("#actions button")) {
      button.addEventListener("click", actions[button.dataset.action]);
    }
    // Decisions live only in this page: say so before it is closed on them.
    window.addEventListener("beforeunload", (event) => {
      if (state.unexported) {
        event.preventDefault();
        event.returnValue = "";
      }
    });

    state.sorted = sortAll();
    state.view = state.sorted;
    renderList();
    renderDecisions();
    renderDetail();
    renderMarked();
    const ms = performance.now();
    document.body.dataset.ready = "1";
    document.body.dataset.scriptMs = String(Math.round(started));
    document.body.dataset.parseMs = String(Math.round(parsedAt - started));
    document.body.dataset.readyMs = String(Math.round(ms));
    announce(`Ready: ${count(N_CLUSTERS, "cluster")} to review (opened in ${(ms / 1000).toFixed(1)} s)`);
  }

  start();
})();
