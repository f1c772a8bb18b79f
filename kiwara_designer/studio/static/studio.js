// Kiwara studio: the page's behaviour. Plain JavaScript, no build step, no library.
// The server draws every board (the same code as the print files) and checks every rule; this
// file only sends what the person does, shows what comes back, and toggles classes on the
// cells (data-cell) and stones (data-position) the server drew.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
const ANIMALS = { Z: "zebra", G: "gazelle", E: "elephant", L: "lion", C: "crocodile" };
const POLL_MS = 250;

const studio = {
  catalogue: null,
  view: "draw",
  draw: { rows: [], undo: [], redo: [], territory: "A", painting: false, stroke: false,
          sent: 0, shown: 0, busy: false, again: false, report: null },
  play: { view: null, choice: { kind: null, cell: null, swaps: [] }, waiting: false },
  test: { job: null },
  print: { page: 1, pages: 0, timer: null, request: null, shown: null, sent: 0,
           pending: () => studio.print.timer !== null },
  aw: { view: null, waiting: false },
};

// -- talking to the server ---------------------------------------------------------------------
// Every request goes through api(): a failing one is shown in the page in words (the server's
// {"error": …}, or what went wrong on the way), in every view, and thrown, marked as shown.
// A request superseded by a newer one (its ``signal`` aborted) is dropped without a word.
class RequestFailed extends Error {}

async function api(method, path, body, signal) {
  const options = { method, headers: { "X-Studio-Token": TOKEN }, signal };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    fail(`no answer from the studio's server (is \`kiwara studio\` still running?): ${error.message}`);
  }
  let data;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: `the server answered ${response.status} ${response.statusText}` };
  }
  if (!response.ok) fail(data.error || `the server answered ${response.status}`);
  return data;
}

// Show a request's failure and throw it, marked as shown.
function fail(text) {
  showMessage(text);
  throw new RequestFailed(text);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForJob(job, onProgress) {
  while (job.state === "running") {
    if (onProgress) onProgress(job);
    await sleep(POLL_MS);
    job = await api("GET", `/api/jobs/${job.id}`);
  }
  if (onProgress) onProgress(job);
  if (job.state === "failed") fail(job.error);
  return job;
}

function showMessage(text, kind = "error") {
  const box = $("message");
  box.replaceChildren(element("span", {}, text),
                      element("button", { class: "close", title: "close", "aria-label": "close",
                                          onclick: () => { box.hidden = true; } }, "×"));
  box.className = `message ${kind}`;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(showMessage.timer);
  showMessage.timer = setTimeout(() => { box.hidden = true; }, kind === "error" ? 12000 : 4000);
}

// Run an async action, showing its error in words instead of failing silently (a request's
// failure is shown already; an aborted request is no failure).
function guarded(action) {
  return async (...args) => {
    try {
      await action(...args);
    } catch (error) {
      if (!(error instanceof RequestFailed) && error.name !== "AbortError") showMessage(error.message);
    }
  };
}

// A file from the server (a print, a record): fetched first, so that a refusal is shown in
// words instead of a broken download, then saved under the server's name for it.
async function download(url) {
  let response;
  try {
    response = await fetch(url, { headers: { "X-Studio-Token": TOKEN } });
  } catch (error) {
    fail(`no answer from the studio's server: ${error.message}`);
  }
  if (!response.ok) {
    let data = {};
    try { data = await response.json(); } catch (e) { /* not JSON */ }
    fail(data.error || `the server answered ${response.status} ${response.statusText}`);
  }
  const disposition = response.headers.get("Content-Disposition") || "";
  const named = /filename\*=UTF-8''([^;]+)/.exec(disposition) || /filename="([^"]+)"/.exec(disposition);
  const name = named ? decodeURIComponent(named[1]) : "download";
  const link = element("a", { href: URL.createObjectURL(await response.blob()), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
}

// Links to the server's files download through download(): its errors shown like any other.
function downloadLinks(event) {
  const link = event.target.closest("a[download]");
  if (!link || !link.href || link.href.startsWith("blob:")) return;
  event.preventDefault();
  // a print's link: the options as they are now (typing may not have reached the preview yet)
  if (link.dataset.format) link.href = tokenUrl("/api/print", printParameters(link.dataset.format));
  guarded(download)(link.href);
}

function tokenUrl(path, params = {}) {
  const query = new URLSearchParams({ token: TOKEN, ...params });
  return `${path}?${query}`;
}

// -- small DOM helpers ---------------------------------------------------------------------------
function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function fillSelect(select, values, labels = {}) {
  select.replaceChildren(...values.map((v) => element("option", { value: v }, labels[v] || v)));
}

// Each board on the page gets its own ids: Chromium cannot clip or fill with a definition that
// sits in a hidden view, and every view holds a board.
function setBoard(container, svg) {
  container.innerHTML = svg.replace(/(inside-border|problem-hatch)/g, `$1-${container.id}`);
}

function markCells(container, cells, className) {
  container.querySelectorAll(`.hit.${className}`).forEach((n) => n.classList.remove(className));
  for (const cell of cells) {
    const hit = container.querySelector(`.hit[data-cell="${cell}"]`);
    if (hit) hit.classList.add(className);
  }
}

function markStones(container, positions, className) {
  container.querySelectorAll(`.stone.${className}`).forEach((n) => n.classList.remove(className));
  for (const position of positions) {
    const stone = container.querySelector(`.stone[data-position="${position}"]`);
    if (stone) stone.classList.add(className);
  }
}

function percent(x) {
  return x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)} %`;
}

function number(x, digits = 1) {
  return x === null || x === undefined ? "–" : x.toFixed(digits);
}

// -- views and keys --------------------------------------------------------------------------------
const VIEWS = ["draw", "play", "test", "print", "awimbawe"];

function showView(name) {
  if (name !== studio.view) $("message").hidden = true;     // said about the view left
  studio.view = name;
  for (const section of document.querySelectorAll("section.view")) {
    section.hidden = section.dataset.view !== name;
  }
  for (const tab of document.querySelectorAll(".tabs button")) {
    tab.setAttribute("aria-selected", String(tab.dataset.view === name));
  }
  if (name === "test" || name === "print") showBoardCopies();
  if (name === "print") updatePrintLinks();
}

function onKey(event) {
  if (event.target.closest("input, textarea, select")) return;
  const key = event.key;
  if (key === "?") { $("help").showModal(); return; }
  if ((event.ctrlKey || event.metaKey) && studio.view === "draw") {
    if (key === "z" && !event.shiftKey) { event.preventDefault(); undo(); }
    if (key === "y" || (key === "Z" && event.shiftKey)) { event.preventDefault(); redo(); }
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (/^[1-5]$/.test(key)) { showView(VIEWS[Number(key) - 1]); return; }
  if (studio.view === "draw") drawKey(key.toUpperCase());
  else if (studio.view === "play") playKey(key);
}

// -- Draw ------------------------------------------------------------------------------------------
function drawKey(key) {
  if (studio.catalogue.palette.includes(key)) chooseTerritory(key);
  else if (key === "R") guarded(randomBoard)();
}

// A territory's colour is the print's: the tints in the order the territories appear, reading
// the board row by row (the server's ``colours`` for each board it checks; this is the same
// rule, for a cell painted before the server's answer comes).
function territoryColours(rows) {
  const colours = {};
  const tints = studio.catalogue.tints;
  for (const letter of rows.join("")) {
    if (!(letter in colours)) colours[letter] = tints[Object.keys(colours).length % tints.length];
  }
  return colours;
}

function renderPalette() {
  const counts = {};
  for (const letter of studio.draw.rows.join("")) counts[letter] = (counts[letter] || 0) + 1;
  const colours = territoryColours(studio.draw.rows);
  const buttons = studio.catalogue.palette.map((name) =>
    element("button", { class: "swatch", "data-territory": name,
                        title: `paint territory ${name} (${name})` + (colours[name] ? "" : ": not on the board yet " +
                               "(its colour: the print's, by where it first appears)"),
                        "aria-pressed": String(name === studio.draw.territory),
                        onclick: () => chooseTerritory(name) },
            element("span", { class: `chip${colours[name] ? "" : " unused"}`, "data-colour": colours[name] || "" }),
            element("b", {}, name), element("small", {}, counts[name] ? `${counts[name]}` : "")));
  $("palette").replaceChildren(...buttons);
  for (const chip of $("palette").querySelectorAll(".chip")) chip.style.background = chip.dataset.colour;
}

function chooseTerritory(name) {
  studio.draw.territory = name;
  renderPalette();
}

function setRows(rows, remember = true) {
  const draw = studio.draw;
  if (remember && draw.rows.length) {
    draw.undo.push(draw.rows.slice());
    draw.redo = [];
  }
  draw.rows = rows.slice();
  renderPalette();
  checkBoard();
}

// Undo and redo move the board between the two stacks, the current rows going onto the other.
function restore(from, to) {
  const draw = studio.draw;
  if (!from.length) return;
  to.push(draw.rows);
  draw.rows = from.pop();
  renderPalette();
  checkBoard();
}

function undo() { restore(studio.draw.undo, studio.draw.redo); }

function redo() { restore(studio.draw.redo, studio.draw.undo); }

function cellIndex(name) {
  return { col: name.charCodeAt(0) - 97, row: Number(name.slice(1)) - 1 };
}

function paintCell(name) {
  const draw = studio.draw;
  const { col, row } = cellIndex(name);
  const line = draw.rows[row];
  if (line === undefined || line[col] === draw.territory) return;
  if (!draw.stroke) {               // the first change of a stroke is one undo step
    draw.undo.push(draw.rows.slice());
    draw.redo = [];
    draw.stroke = true;
  }
  draw.rows[row] = line.slice(0, col) + draw.territory + line.slice(col + 1);
  const rect = $("draw-board").querySelector(`rect.cell[data-cell="${name}"]`);
  if (rect) rect.setAttribute("fill", territoryColours(draw.rows)[draw.territory]);
  checkBoard();
}

function cellUnder(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  return target && target.matches(".hit") ? target.dataset.cell : null;
}

function startPainting(event) {
  if (event.button !== 0) return;
  const cell = cellUnder(event);
  if (!cell) return;
  event.preventDefault();
  studio.draw.painting = true;
  studio.draw.stroke = false;
  paintCell(cell);
}

function keepPainting(event) {
  if (!studio.draw.painting) return;
  const cell = cellUnder(event);
  if (cell) paintCell(cell);
}

function stopPainting() {
  if (!studio.draw.painting) return;
  studio.draw.painting = false;
  renderPalette();
}

function pickTerritory(event) {
  const cell = cellUnder(event);
  if (!cell) return;
  event.preventDefault();
  const { col, row } = cellIndex(cell);
  chooseTerritory(studio.draw.rows[row][col]);
}

// Live validation: one request at a time, the latest board always checked last.
async function checkBoard() {
  const draw = studio.draw;
  if (draw.busy) { draw.again = true; return; }
  draw.busy = true;
  try {
    do {
      draw.again = false;
      const sent = ++draw.sent;
      const report = await api("POST", "/api/board/check", { rows: draw.rows, rules: $("rules").value });
      if (sent === draw.sent) showReport(report);
    } while (draw.again);
  } catch (error) {
    if (!(error instanceof RequestFailed)) showMessage(error.message);
  } finally {
    draw.busy = false;
  }
}

function showReport(report) {
  studio.draw.report = report;
  const board = $("draw-board");
  setBoard(board, report.svg);
  markCells(board, report.bad_cells, "bad");
  const verdict = $("verdict");
  verdict.className = `verdict ${report.valid ? "ok" : "bad"}`;
  verdict.textContent = report.valid
    ? `Valid ${report.rules} board` + (report.known_board ? ` — this is the ${report.known_board} board` : "")
    : `${report.problems.length} problem${report.problems.length > 1 ? "s" : ""} (${report.rules_text})`;
  $("problems").replaceChildren(...report.problems.map((p) =>
    element("li", { "data-kind": p.kind,
                    onmouseenter: () => markCells(board, p.cells, "focus"),
                    onmouseleave: () => markCells(board, [], "focus") }, p.message)));
  showFacts(report);
  $("rows-text").textContent = report.rows.join("\n");
  if (studio.view === "print") updatePrintLinks();
}

function showFacts(report) {
  const territories = Object.entries(report.territories).map(([name, size]) => {
    const chip = element("span", { class: "chip" });
    chip.style.background = report.colours[name] || "#ddd";
    return element("span", { class: "territory" }, chip, `${name} ${size}`);
  });
  const entries = [
    ["Territories", territories],
    ["Size mix", report.size_mix.join(", ")],
    ["River sticks", `${report.river_segments} of the ${report.sticks_in_box} in the box`],
    ["Known board", report.known_board || "no (a new board)"],
  ];
  $("facts").replaceChildren(...entries.flatMap(([term, value]) =>
    [element("dt", {}, term), element("dd", {}, value)]));
}

async function randomBoard() {
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  const mix = $("mix").value || null;
  showMessage("drawing a random board…", "info");
  const report = await api("POST", "/api/board/random", { seed, mix });
  setRows(report.rows);
  $("random-info").textContent = `seed ${report.seed} · again: ${report.command}`;
  $("print-title").value = `seed ${report.seed}`;
  $("message").hidden = true;
}

async function loadBuiltin() {
  const report = await api("POST", "/api/board/builtin", { name: $("builtin").value });
  setRows(report.rows);
  $("print-title").value = $("builtin").value;
}

async function loadPasted() {
  const report = await api("POST", "/api/board/parse", { text: $("paste").value });
  setRows(report.rows);
}

function clearBoard() {
  setRows(studio.draw.rows.map((row) => "A".repeat(row.length)));
}

// -- Play --------------------------------------------------------------------------------------------
function playKey(key) {
  if (key === "Escape") { resetChoice(); return; }
  const kind = key.toUpperCase();
  if (ANIMALS[kind]) chooseAnimal(kind);
}

async function newGame() {
  const agent = $("play-agent").value;
  const body = { rows: studio.draw.rows, agent, seat: Number($("play-seat").value),
                 variant: $("play-variant").value,
                 seed: $("play-seed").value === "" ? null : Number($("play-seed").value) };
  if (searches("kiwara", agent)) body.iterations = Number($("play-iterations").value);
  if (studio.draw.report && !studio.draw.report.valid) {
    showMessage("note: the drawn board breaks the rules; playing it anyway", "info");
  }
  showGame(await api("POST", "/api/kiwara/new", body));
  await agentTurn("kiwara");
}

async function loadRecord(event) {
  const file = event.target.files[0];
  if (!file) return;
  const agent = $("play-agent").value;
  const body = { record: await file.text(), agent };
  if (searches("kiwara", agent)) body.iterations = Number($("play-iterations").value);
  event.target.value = "";
  showGame(await api("POST", "/api/kiwara/load", body));
  await agentTurn("kiwara");
}

// A game's moves, for either game: the person's move, then the agent's turn, whose move comes
// at once or as a job to wait for (a long search).
const GAMES = {
  kiwara: { holder: () => studio.play, show: (view) => showGame(view) },
  awimbawe: { holder: () => studio.aw, show: (view) => showMatch(view) },
};

async function sendMove(game, text) {
  const { holder, show } = GAMES[game];
  const view = holder().view;
  if (!view || holder().waiting) return;
  if (game === "kiwara") resetChoice(false);
  show(await api("POST", `/api/${game}/${view.id}/move`, { move: text }));
  await agentTurn(game);
}

async function agentTurn(game) {
  const { holder, show } = GAMES[game];
  const view = holder().view;
  if (!view || view.over || view.your_turn) return;
  holder().waiting = true;
  show(view);
  try {
    const answer = await api("POST", `/api/${game}/${view.id}/agent`);
    if (answer.job) await waitForJob(answer.job);
    show(answer.view || await api("GET", `/api/${game}/${view.id}`));
  } finally {
    holder().waiting = false;
    show(holder().view);
  }
}

const playMove = (text) => sendMove("kiwara", text);
const awimbaweMove = (text) => sendMove("awimbawe", text);

function showGame(view) {
  studio.play.view = view;
  const board = $("play-board");
  setBoard(board, view.svg);
  markCells(board, view.line_cells, "line");
  if (view.last) {
    markCells(board, view.last.placed, "last");
    markCells(board, view.last.fled, "fled");
    markCells(board, view.last.flipped, "flipped");
  }
  showPlayStatus(view);
  showScores(view);
  showReserves(view);
  $("play-log").replaceChildren(...view.log.slice().reverse().map((line) => element("li", {}, line)));
  const record = $("download-record");
  record.hidden = false;
  record.href = tokenUrl(`/api/kiwara/${view.id}/record`);
  record.setAttribute("download", `kiwara-${view.id}.json`);
  showChoice();
}

function showPlayStatus(view) {
  const status = $("play-status");
  const agent = view.seats[1 - view.you];
  let text;
  let kind = "";
  if (view.over) {
    text = `Game over — ${view.verdict.replace(/^final: /, "")}`;
    kind = view.verdict.includes("you win") ? "ok" : "bad";
  } else if (studio.play.waiting || view.busy) {
    text = `${agent} is thinking…`;
  } else if (view.your_turn && view.totem === null) {
    text = "Your turn: put the totem on a stone (click one)";
  } else if (view.your_turn) {
    text = `Your turn: place a token on ${view.totem_line}, then move the totem`;
  } else {
    text = `${agent} to play`;
  }
  status.className = `verdict ${kind}`;
  status.textContent = text;
  status.dataset.over = String(view.over);
}

function showScores(view) {
  const names = view.seats.map((s, i) => (i === view.you ? "you" : s));
  const okapi = view.okapi === null ? "not taken yet" : `${names[view.okapi]} (+${view.okapi_points})`;
  $("play-score").replaceChildren(
    element("span", { class: "big" }, `${names[0]} ${view.scores[0]} – ${view.scores[1]} ${names[1]}`),
    element("span", {}, ` · Okapi: ${okapi}`));
  const controller = (c) => (c === null ? "nobody" : c === -1 ? "both" : names[c]);
  const rows = view.territories.map((t) =>
    element("tr", {}, element("td", {}, t.name), element("td", {}, String(t.size)),
            element("td", {}, String(t.tokens[0])), element("td", {}, String(t.tokens[1])),
            element("td", {}, controller(t.controller)), element("td", {}, String(t.points))));
  $("play-territories").replaceChildren(
    element("tr", {}, ...["territory", "size", names[0], names[1], "controls", "points"]
      .map((h) => element("th", {}, h))), ...rows);
}

function showReserves(view) {
  const names = view.seats.map((s, i) => (i === view.you ? "your hand" : `${s}'s hand`));
  const chip = (player) => {
    const c = element("span", { class: "chip token-chip" });
    c.style.background = studio.catalogue.player_colours[player];
    return c;
  };
  $("play-reserves").replaceChildren(...view.reserves.map((reserve, player) =>
    element("p", {}, chip(player), element("b", {}, ` ${names[player]}: `),
            reserve.filter((r) => r.count).map((r) => `${r.count} ${r.name}${r.count > 1 ? "s" : ""}`)
              .join(", ") || "empty")));
}

function sameStart(swaps, prefix) {
  return prefix.every((cell, i) => swaps[i] === cell);
}

function candidates() {
  const { kind, cell, swaps } = studio.play.choice;
  return studio.play.view.legal.filter((m) => m.kind !== null && (kind === null || m.kind === kind)
    && (cell === null || m.cell === cell) && sameStart(m.swaps, swaps));
}

function resetChoice(redraw = true) {
  studio.play.choice = { kind: null, cell: null, swaps: [] };
  if (redraw && studio.play.view) showChoice();
}

function chooseAnimal(kind) {
  const view = studio.play.view;
  if (!view || !view.your_turn || studio.play.waiting) return;
  if (!view.legal.some((m) => m.kind === kind)) {
    showMessage(`no ${ANIMALS[kind]} can be placed now`);
    return;
  }
  studio.play.choice = { kind, cell: null, swaps: [] };
  showChoice();
}

// Highlight what can be clicked next, and play the move once nothing is left to choose.
function showChoice() {
  const view = studio.play.view;
  const board = $("play-board");
  const choice = studio.play.choice;
  let cells = [], swaps = [], stones = [], ending = null;
  if (view.your_turn && !studio.play.waiting) {
    if (view.totem === null) {
      stones = view.legal.filter((m) => m.kind === null && m.totem !== null).map((m) => m.totem);
    } else if (choice.kind !== null && choice.cell === null) {
      cells = [...new Set(candidates().map((m) => m.cell))];
    } else if (choice.cell !== null) {
      const found = candidates();
      const here = found.filter((m) => m.swaps.length === choice.swaps.length);
      swaps = [...new Set(found.filter((m) => m.swaps.length > choice.swaps.length)
        .map((m) => m.swaps[choice.swaps.length]))];
      stones = here.filter((m) => m.totem !== null).map((m) => m.totem);
      ending = here.find((m) => m.totem === null) || null;    // the last placement: no totem
      if (swaps.length === 0 && here.length === 1) {
        guarded(playMove)(here[0].text);
        return;
      }
    }
  }
  markCells(board, cells, "target");
  markCells(board, swaps, "swap");
  markCells(board, choice.cell ? [choice.cell, ...choice.swaps] : [], "chosen");
  markStones(board, stones, "target");
  showActions(view, swaps.length > 0, ending);
}

// The animals, other moves (a pass, a card), and what to click next; ``ending`` is the game's
// last placement, which has no stone to click when a crocodile could still swap.
function showActions(view, swapping, ending) {
  const box = $("play-actions");
  if (!view.your_turn || studio.play.waiting) { box.replaceChildren(); return; }
  const choice = studio.play.choice;
  const reserve = view.reserves[view.you];
  const animals = view.totem === null ? [] : reserve.map((r) =>
    element("button", { class: "animal", "data-kind": r.kind, "aria-pressed": String(choice.kind === r.kind),
                        disabled: !view.legal.some((m) => m.kind === r.kind) || null,
                        title: `${r.name}, ${r.points} points (${r.kind})`,
                        onclick: () => chooseAnimal(r.kind) },
            element("kbd", {}, r.kind), ` ${r.name} ×${r.count}`));
  const others = view.legal.filter((m) => m.kind === null && (m.card || m.pass)).map((m) =>
    element("button", { onclick: guarded(() => playMove(m.text)) }, m.pass ? "Pass" : m.text));
  let help = "";
  if (choice.kind && !choice.cell) help = `${ANIMALS[choice.kind]}: click a highlighted cell`;
  if (choice.cell) {
    help = `${ANIMALS[choice.kind]} on ${choice.cell}` +
      (choice.swaps.length ? `, swapping with ${choice.swaps.join(", ")}` : "") +
      (swapping ? ": click a gazelle to swap with it, or a highlighted stone for the totem"
                : ": click a highlighted stone for the totem");
  }
  if (ending) {
    others.push(element("button", { id: "end-placement", onclick: guarded(() => playMove(ending.text)) },
                        `Place it here, no more swaps (${ending.text})`));
  }
  if (!animals.length && !others.length && !help) { box.replaceChildren(); return; }   // no empty bar
  box.replaceChildren(element("div", { class: "row" }, animals, others),
                      element("p", { class: "choice" }, help));
}

function playBoardClick(event) {
  const view = studio.play.view;
  if (!view || !view.your_turn || studio.play.waiting) return;
  const stone = event.target.closest(".stone");
  if (stone) { stoneClicked(Number(stone.dataset.position)); return; }
  const hit = event.target.closest(".hit");
  if (hit) cellClicked(hit.dataset.cell);
}

function cellClicked(cell) {
  const choice = studio.play.choice;
  const view = studio.play.view;
  if (choice.cell !== null && candidates().some((m) => m.swaps[choice.swaps.length] === cell)) {
    choice.swaps = [...choice.swaps, cell];
  } else {
    if (choice.kind === null) {
      const kinds = [...new Set(view.legal.filter((m) => m.cell === cell).map((m) => m.kind))];
      if (kinds.length !== 1) {
        showMessage(kinds.length ? "choose an animal first: Z G E L C" : `nothing can be placed on ${cell}`);
        return;
      }
      choice.kind = kinds[0];
    }
    if (!view.legal.some((m) => m.kind === choice.kind && m.cell === cell)) {
      showMessage(`no ${ANIMALS[choice.kind]} on ${cell}: the totem faces ${view.totem_line}`);
      return;
    }
    choice.cell = cell;
    choice.swaps = [];
  }
  showChoice();
}

function stoneClicked(position) {
  const view = studio.play.view;
  const choice = studio.play.choice;
  if (view.totem === null) {
    const opening = view.legal.find((m) => m.kind === null && m.totem === position);
    if (opening) guarded(playMove)(opening.text);
    return;
  }
  if (choice.cell === null) {
    showMessage("place a token first: choose an animal, then a cell");
    return;
  }
  const move = candidates().find((m) => m.swaps.length === choice.swaps.length && m.totem === position);
  if (move) guarded(playMove)(move.text);
  else showMessage(`the totem cannot go to stone ${position} now`);
}

// -- Test --------------------------------------------------------------------------------------------
function showBoardCopies() {
  const report = studio.draw.report;
  if (!report) return;
  setBoard($("test-board"), report.svg);
}

async function startTest() {
  const body = { rows: studio.draw.rows, agent: $("test-agent").value, games: Number($("test-games").value),
                 seed: Number($("test-seed").value), variant: $("test-variant").value };
  const opponent = $("test-opponent").value;
  if (opponent) body.opponent = opponent;
  if (searches("kiwara", body.agent) || searches("kiwara", opponent)) body.iterations = Number($("test-iterations").value);
  $("test-results").replaceChildren();
  showFairness(null);
  setTesting(true);
  try {
    studio.test.job = await api("POST", "/api/playtest", body);
    const job = await waitForJob(studio.test.job, showTestProgress);
    if (job.state === "done") showTestResults(job.result);
    else $("test-status").textContent = `cancelled after ${job.done} of ${job.total} games`;
  } finally {
    setTesting(false);
  }
}

function setTesting(running) {
  $("test-start").disabled = running;
  $("test-cancel").disabled = !running;
  $("test-progress").hidden = !running;
}

function showTestProgress(job) {
  const bar = $("test-progress");
  bar.max = Math.max(job.total, 1);
  bar.value = job.done;
  $("test-status").textContent = `${job.done} of ${job.total} games played (${job.seconds} s)`;
}

async function cancelTest() {
  if (studio.test.job) await api("POST", `/api/jobs/${studio.test.job.id}/cancel`);
}

// The verdict first, in `kiwara fair`'s words (its outcome also as a colour, never alone):
// fair, favours a player, or cannot tell within the games played.
const FAIRNESS_KINDS = { "fair": "ok", "favours first": "bad", "favours second": "bad", "cannot tell": "warn" };

function showFairness(f) {
  const box = $("test-verdict");
  box.className = `verdict fairness ${f ? FAIRNESS_KINDS[f.outcome] ?? "" : ""}`;
  if (!f) { box.replaceChildren(); return; }
  const sentence = f.verdict.charAt(0).toUpperCase() + f.verdict.slice(1);
  const cut = sentence.indexOf(": ");
  const head = cut < 0 ? sentence : sentence.slice(0, cut + 1);
  const rest = cut < 0 ? "" : sentence.slice(cut + 1);
  const unpaired = f.unpaired
    ? ` The last game, without its seat-swapped partner, is left out: the verdict is on ${f.games} games.`
    : "";
  box.replaceChildren(
    element("p", { class: "sentence" }, element("strong", {}, head), `${rest}.`),
    element("p", { class: "small" },
      `${f.games / 2} seat-swapped pairs; a 95 % confidence sequence, as `, element("code", {}, "kiwara fair"),
      ` gives (wider than the table's interval); precision asked ±${(100 * f.precision).toFixed(1)} points.` +
      unpaired));
}

function showTestResults(r) {
  showFairness(r.fairness);
  const interval = (x, f) => `${f(x.value ?? x.mean)}  [${f(x.low)}, ${f(x.high)}]`;
  const signed = (x) => (x === null ? "–" : (x >= 0 ? "+" : "") + x.toFixed(1));
  const rows = [
    ["first player wins", interval(r.first_player_win, percent), "50 % is a fair board"],
    ["draws", percent(r.draws.value), ""],
    ["score margin (first − second)", interval(r.margin, signed), "points"],
    ["winning margin", number(r.abs_margin.mean), "points on average"],
    ["decisiveness", interval(r.decisiveness, (x) => number(x, 2)), "share of the game the winner led to the end"],
    ["game length", number(r.length.mean), "turns"],
    ["lead changes", number(r.lead_changes.mean), "per game"],
    ["layout score", number(r.score, 3), "the lab's 0–1 summary"],
  ];
  $("test-results").replaceChildren(
    element("tr", {}, element("th", {}, "measure"), element("th", {}, "value [95 % interval]"), element("th", {}, "")),
    ...rows.map(([name, value, note]) => element("tr", {}, element("td", {}, name),
      element("td", { class: "num" }, value), element("td", { class: "small" }, note))));
  $("test-status").textContent = `${r.games} games of ${r.agents.join(" against ")}, seed ${r.seed}`;
}

// -- Print -------------------------------------------------------------------------------------------
// The preview is one page of the print at a time (the board, a tiled board's sheets, the kit's
// pages), asked for once typing pauses (PREVIEW_MS), the request before cancelled; the SVG and
// PNG downloads are the page shown, the PDF every page.
const PREVIEW_MS = 300;

function printOptions() {
  const options = { rows: studio.draw.rows, paper: $("print-paper").value.trim() || "a4",
                    crop_marks: $("print-crop").checked, bleed_mm: Number($("print-bleed").value || 0),
                    backs: $("print-backs").value, kit: $("print-kit").checked,
                    variant: $("print-variant").value, title: $("print-title").value.trim() };
  if ($("print-cell").value !== "") options.cell_mm = Number($("print-cell").value);
  return options;
}

function printParameters(format) {
  const o = printOptions();
  const params = { rows: o.rows.join(","), format, paper: o.paper, crop_marks: o.crop_marks ? "1" : "0",
                   bleed_mm: String(o.bleed_mm), backs: o.backs, kit: o.kit ? "1" : "0",
                   variant: o.variant, title: o.title };
  if (o.cell_mm !== undefined) params.cell_mm = String(o.cell_mm);
  if (format === "png") params.dpi = $("print-dpi").value || "150";
  if (format !== "pdf" && studio.print.pages > 1) params.page = String(studio.print.page);
  return params;
}

// Any change of an option: a new preview once typing pauses.
function updatePrintLinks() {
  clearTimeout(studio.print.timer);
  studio.print.timer = setTimeout(() => { studio.print.timer = null; guarded(showPreview)(); }, PREVIEW_MS);
}

async function showPreview() {
  const print = studio.print;
  const key = JSON.stringify([printOptions(), print.page]);
  if (key === print.shown) return;
  if (print.request) print.request.abort();           // the last answer that counts is this one's
  const request = new AbortController();
  print.request = request;
  print.sent += 1;
  $("print-status").textContent = "preparing the preview…";
  let answer;
  try {
    answer = await api("POST", "/api/print/preview", { ...printOptions(), page: print.page }, request.signal);
  } catch (error) {
    if (error.name === "AbortError") return;
    print.shown = null;
    setPrintLinks(false, error.message);
    throw error;
  } finally {
    if (print.request === request) print.request = null;
  }
  print.shown = key;
  print.pages = answer.pages.length;
  print.page = answer.page;
  const preview = $("print-preview");
  if (preview.dataset.url) URL.revokeObjectURL(preview.dataset.url);
  preview.dataset.url = URL.createObjectURL(new Blob([answer.svg], { type: "image/svg+xml" }));
  preview.src = preview.dataset.url;
  preview.alt = `page ${answer.page} of ${answer.pages.length} of the print: ${answer.pages[answer.page - 1].name}`;
  showPrintPages(answer);
  setPrintLinks(true, "");
}

// The print's pages as buttons (board, tokens, rules…); the one shown pressed.
function showPrintPages(answer) {
  const names = answer.pages.map((p) => p.name);
  $("print-pages").replaceChildren(...answer.pages.map((page, i) =>
    element("button", { "data-page": String(i + 1), "aria-pressed": String(i + 1 === answer.page),
                        title: `page ${i + 1}: ${page.name} (${page.width_mm} × ${page.height_mm} mm)`,
                        onclick: () => { studio.print.page = i + 1; guarded(showPreview)(); } },
            `${i + 1} ${page.name}`)));
  $("print-pages").hidden = names.length < 2;
  $("print-status").textContent = names.length > 1
    ? `${names.length} pages; page ${answer.page} shown. SVG and PNG: this page; PDF: every page.`
    : "1 page.";
}

function setPrintLinks(ready, why) {
  for (const format of ["svg", "pdf", "png"]) {
    const link = $(`print-${format}`);
    link.href = tokenUrl("/api/print", printParameters(format));
    link.setAttribute("aria-disabled", String(!ready));
    link.title = ready ? "" : why;
  }
  $("print-error").textContent = ready ? "" : `No preview: ${why}`;
  $("print-error").hidden = ready;
  $("print-preview").hidden = !ready;
  if (!ready) {
    $("print-status").textContent = "";
    $("print-pages").hidden = true;
  }
}

// -- Awimbawé ----------------------------------------------------------------------------------------
// The match's seed is the server's secret until the end (it would tell every deal): the page
// never sends one; the record, given once the match is over, holds it.
async function newMatch() {
  const agent = $("aw-agent").value;
  const body = { agent, seat: Number($("aw-seat").value), variant: $("aw-variant").value };
  if (searches("awimbawe", agent)) body.iterations = Number($("aw-iterations").value);
  showMatch(await api("POST", "/api/awimbawe/new", body));
  await agentTurn("awimbawe");
}

function cardElement(card, options = {}) {
  if (card.name === "?") return element("div", { class: "card back", title: "face down" });
  const crowns = card.crowns < 0 ? `${card.crowns} ♛` : "♛".repeat(card.crowns);
  return element("div", { class: `card suit-${card.name[0]}${options.playable ? " playable" : ""}` +
                          `${options.blocked ? " blocked" : ""}`,
                          "data-card": card.name, title: `${card.name}: ${card.animal} (${card.suit})` +
                          (options.blocked ? ", blocked by a snake" : ""),
                          onclick: options.onclick || null },
                 element("span", { class: "value" }, card.name),
                 element("span", { class: "animal" }, card.animal),
                 element("span", { class: "crowns" }, crowns));
}

function showMatch(view) {
  studio.aw.view = view;
  const me = view.you;
  const them = 1 - me;
  const playable = new Set(view.your_turn && !studio.aw.waiting ? view.legal.map((m) => m.card) : []);
  const blocked = new Set(view.blocked);
  const mine = (card) => cardElement(card, { playable: playable.has(card.name), blocked: blocked.has(card.name),
                                             onclick: () => chooseCard(card.name) });
  const piles = (seat, own) => element("div", { class: "piles" }, view.piles[seat].map((pile, k) =>
    element("div", { class: "pile", title: `pile ${k + 1}` }, element("small", {}, `${k + 1}`),
            pile.map((card, i) => (own && i === pile.length - 1 ? mine(card)
              : cardElement(card, { blocked: blocked.has(card.name) }))))));
  const backs = Array.from({ length: view.opponent_hand_size }, () => element("div", { class: "card back" }));
  // once the match is over no cards are left and no round is running: the rounds won only
  const side = (seat) => (view.over ? "" : `hyenas ${view.hyenas[seat]} · crowns ${view.crowns[seat]} · `) +
    `rounds won ${view.rounds_won[seat]}`;
  $("aw-table").replaceChildren(
    element("div", { class: "seat them" }, element("h3", {}, `${view.seats[them]} — ${side(them)}`),
            view.over ? null : element("div", { class: "hand" }, backs,
                    view.blind_blocks ? element("small", {}, ` (${view.blind_blocks} blocked by your snake)`) : null),
            view.over ? null : piles(them, false)),
    element("div", { class: "middle" }, view.over ? matchResult(view) : currentTrick(view), lastTrick(view)),
    element("div", { class: "seat you" }, view.over ? null : piles(me, true),
            view.over ? null : element("div", { class: "hand" }, view.hand.map(mine)),
            element("h3", {}, `you — ${side(me)}`)));
  showMatchStatus(view);
  showMatchActions(view, null);
  $("aw-log").replaceChildren(...view.log.slice().reverse().map((line) => element("li", {}, line)));
  const record = $("aw-record");
  record.hidden = !view.over;
  record.href = tokenUrl(`/api/awimbawe/${view.id}/record`);
  record.setAttribute("download", `awimbawe-${view.id}.json`);
  // (the seed itself is not printed: 63 bits do not fit a JavaScript number; the record has it)
  $("aw-seed-note").textContent = view.over ? "The record holds every deal of the match and its seed." : "";
}

// A played card with who played it underneath (the last trick's winner marked by the caller).
function playedCard(card, caption, className = "") {
  return element("figure", { class: `played ${className}` }, cardElement(card), element("figcaption", {}, caption));
}

function currentTrick(view) {
  const names = view.seats;
  const cards = view.trick.map((card, i) =>
    playedCard(card, i === 0 ? `${names[view.leader]} led` : names[1 - view.leader]));
  return element("div", { class: "trick", id: "aw-trick" },
                 element("h3", {}, `Round ${view.round} · trick ${view.tricks + 1}`),
                 element("div", { class: "hand" }, cards));
}

// The last finished trick, which the rules let both players look at again, with its winner.
function lastTrick(view) {
  const trick = view.last_trick;
  const box = element("div", { class: "last-trick", id: "aw-last" });
  if (!trick) {
    box.append(element("h3", {}, "Last trick"), element("p", { class: "none" }, "none yet"));
    return box;
  }
  const names = view.seats;
  const follower = 1 - trick.leader;
  const round = trick.round === view.round ? "" : ` of round ${trick.round}`;
  box.dataset.winner = String(trick.winner);
  box.append(
    element("h3", {}, `Last trick${round}: ${names[trick.winner]} won`),
    element("div", { class: "hand" },
            playedCard(trick.cards[0], `${names[trick.leader]} led`, trick.winner === trick.leader ? "winner" : ""),
            playedCard(trick.cards[1], trick.fled ? `${names[follower]}: fled` : names[follower],
                       trick.winner === follower ? "winner" : "")));
  return box;
}

// Once the match is over: the result and each round's, instead of a round that never comes.
function matchResult(view) {
  const names = view.seats;
  const won = view.winner === view.you;
  const rounds = view.rounds.map((r, k) => element("li", {},
    `round ${k + 1}: ${names[r.winner]} ${names[r.winner] === "you" ? "win" : "wins"} ` +
    (r.by_hyenas ? `by four hyenas (${names[1 - r.winner]} took them)`
      : `by crowns (${names[0]} ${r.crowns[0]}, ${names[1]} ${r.crowns[1]})`)));
  return element("div", { class: "trick result", id: "aw-result" },
                 element("h3", {}, `Match over: ${won ? "you win" : `${names[view.winner]} wins`} ` +
                         `${Math.max(...view.rounds_won)}–${Math.min(...view.rounds_won)}`),
                 element("ol", {}, rounds));
}

function showMatchStatus(view) {
  const status = $("aw-status");
  const agent = view.seats[1 - view.you];
  if (view.over) {
    const won = view.winner === view.you;
    status.className = `verdict ${won ? "ok" : "bad"}`;
    status.textContent = `Match over — ${won ? "you win" : `${agent} wins`} ${Math.max(...view.rounds_won)}–${Math.min(...view.rounds_won)}`;
  } else {
    status.className = "verdict";
    status.textContent = studio.aw.waiting || view.busy ? `${agent} is thinking…`
      : view.your_turn ? "Your turn: click a highlighted card" : `${agent} to play`;
  }
}

function chooseCard(name) {
  const view = studio.aw.view;
  if (!view.your_turn || studio.aw.waiting) return;
  const moves = view.legal.filter((m) => m.card === name);
  if (moves.length === 1) guarded(awimbaweMove)(moves[0].text);
  else if (moves.length > 1) showMatchActions(view, name);
  else showMessage(`${name} cannot be played now`);
}

function showMatchActions(view, card) {
  const box = $("aw-actions");
  if (!view.your_turn || studio.aw.waiting) { box.replaceChildren(); return; }
  const moves = view.legal.filter((m) => (card ? m.card === card : m.card === null));
  const title = card ? `${card}: how?` : (moves.length ? "Choose:" : "");
  box.replaceChildren(element("p", { class: "choice" }, title), element("div", { class: "row" },
    moves.map((m) => element("button", { "data-move": m.text, onclick: guarded(() => awimbaweMove(m.text)) },
                             `${m.words} (${m.text})`))));
}

// -- start -----------------------------------------------------------------------------------------
function fillForms(catalogue) {
  fillSelect($("rules"), catalogue.rules);
  fillSelect($("builtin"), Object.keys(catalogue.layouts));
  fillSelect($("mix"), ["", ...catalogue.mixes.map((m) => m.join(","))], { "": "any mix" });
  const { kiwara, awimbawe } = catalogue.games;
  for (const id of ["play-agent", "test-agent"]) fillSelect($(id), kiwara.agents, agentLabels("kiwara"));
  fillSelect($("test-opponent"), ["", ...kiwara.agents], { "": "itself", ...agentLabels("kiwara") });
  fillSelect($("aw-agent"), awimbawe.agents, agentLabels("awimbawe"));
  $("play-agent").value = "greedy";
  // The Test view starts from the lab's default pairing (Kiwara: the skill study's choice).
  const [first, second] = kiwara.lab_agents;
  const [kind, budget] = first.split(":");
  $("test-agent").value = kind;
  if (budget) $("test-iterations").value = budget;
  if (second !== first) $("test-opponent").value = second.split(":")[0];
  $("aw-agent").value = "greedy";
  for (const id of ["play-variant", "test-variant", "print-variant"]) fillSelect($(id), kiwara.variants);
  fillSelect($("aw-variant"), awimbawe.variants);
}

// Each game's opponents come from the server's agent registry; a search takes a budget (the
// chosen strength), the others none.
function searches(game, agent) {
  return studio.catalogue.games[game].budgeted.includes(agent);
}

// A Strength choice only where an agent takes one (the catalogue's ``budgeted``).
function showStrengths() {
  $("play-strength").hidden = !searches("kiwara", $("play-agent").value);
  $("test-strength").hidden = !searches("kiwara", $("test-agent").value) &&
    !searches("kiwara", $("test-opponent").value);
  $("aw-strength").hidden = !searches("awimbawe", $("aw-agent").value);
}

function agentLabels(game) {
  return Object.fromEntries(studio.catalogue.games[game].agents.map((kind) =>
    [kind, searches(game, kind) ? `${kind} (search)` : kind]));
}

function wire() {
  for (const tab of document.querySelectorAll(".tabs button")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }
  document.addEventListener("keydown", onKey);
  $("help-button").addEventListener("click", () => $("help").showModal());
  const board = $("draw-board");
  board.addEventListener("pointerdown", startPainting);
  board.addEventListener("pointermove", keepPainting);
  board.addEventListener("contextmenu", pickTerritory);
  window.addEventListener("pointerup", stopPainting);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("clear").addEventListener("click", clearBoard);
  $("rules").addEventListener("change", checkBoard);
  $("random-board").addEventListener("click", guarded(randomBoard));
  $("load-builtin").addEventListener("click", guarded(loadBuiltin));
  $("load-paste").addEventListener("click", guarded(loadPasted));
  $("new-game").addEventListener("click", guarded(newGame));
  $("load-record").addEventListener("change", guarded(loadRecord));
  $("play-board").addEventListener("click", playBoardClick);
  $("play-typed").addEventListener("click", guarded(() => playMove($("move-text").value.trim())));
  $("move-text").addEventListener("keydown", (e) => {
    if (e.key === "Enter") guarded(() => playMove($("move-text").value.trim()))();
  });
  $("test-start").addEventListener("click", guarded(startTest));
  $("test-cancel").addEventListener("click", guarded(cancelTest));
  document.addEventListener("click", downloadLinks);
  for (const node of document.querySelectorAll("#view-print input, #view-print select")) {
    node.addEventListener("input", updatePrintLinks);
  }
  $("aw-new").addEventListener("click", guarded(newMatch));
  for (const id of ["play-agent", "test-agent", "test-opponent", "aw-agent"]) {
    $(id).addEventListener("change", showStrengths);
  }
  showStrengths();
  // a failure nothing else caught is still said in words
  window.addEventListener("unhandledrejection", (event) => {
    const error = event.reason;
    if (error && !(error instanceof RequestFailed) && error.name !== "AbortError") {
      showMessage(error.message || String(error));
    }
  });
}

async function start() {
  if (!TOKEN) {
    showMessage("this address has no token: open the one `kiwara studio` printed");
    return;
  }
  studio.catalogue = await api("GET", "/api/catalogue");
  fillForms(studio.catalogue);
  wire();
  studio.draw.rows = studio.catalogue.layouts.classic.slice();
  renderPalette();
  await checkBoard();
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", guarded(start));
