// The page of `dominocore serve` (docs/serve.md): at "/" the form that creates
// a table; at "/play#TOKEN" the table itself, drawn from the server's `state`
// messages over the websocket protocol (version 1).
//
// Text from the server only ever goes in through textContent or attributes;
// the one piece of markup is the layout's SVG, which the server draws from
// public fields. The hand's tiles are drawn here, with DOM calls.

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
const KINDS = ["human", "random", "greedy", "learned", "ismcts-0.1", "ismcts-0.5", "ismcts-2"];
const DEFAULT_SET = { chickenfoot: 9, mexican_train: 12 };
const GAME_NAMES = {
  chickenfoot: "Chicken Foot", doubles: "Doubles", block: "Block", mexican_train: "Mexican Train",
  all_fives: "All Fives", fives_and_threes: "Fives and Threes",
};
const SCORES_IN_PLAY = new Set(["all_fives", "fives_and_threes"]);

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

function element(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function svgElement(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// ================================================================== create

function playerCount() {
  return Math.max(2, Math.min(8, Math.round(Number($("players").value)) || 2));
}

/** One select per seat, keeping the choices already made. */
function seatSelects() {
  const box = $("seats");
  const labels = [...box.querySelectorAll("label")];
  const players = playerCount();
  labels.slice(players).forEach((label) => label.remove());
  for (let k = labels.length; k < players; k++) {
    const select = element("select", undefined, { "data-seat": k, name: `seat${k}` });
    for (const kind of KINDS) select.append(element("option", kind, { value: kind }));
    select.value = k === 0 ? "human" : "greedy";
    const label = element("label", `seat ${k} `);
    label.append(select);
    box.append(label);
  }
}

function formRules() {
  const [game, ruleSet] = $("game").value.split(":");
  const rules = { game };
  if (ruleSet) rules.rule_set = ruleSet;
  rules.players = Number($("players").value);
  rules.set = Number($("set").value);
  return rules;
}

const playLink = (token) => new URL(`/play#${encodeURIComponent(token)}`, location.origin).href;

function showLinks(answer) {
  const list = $("link-list");
  list.replaceChildren();
  const add = (label, token, attrs) => {
    const href = playLink(token);
    const item = element("li");
    item.append(element("span", label, { class: "who" }));
    item.append(element("a", href, { ...attrs, href, target: "_blank", rel: "noopener" }));
    list.append(item);
  };
  answer.seats.forEach((token, k) => {
    if (token !== null) add(`seat ${k}`, token, { class: "seat-link", "data-seat": k });
  });
  add("spectator", answer.spectator, { class: "spectator-link" });
  $("links").hidden = false;
}

async function createTable(event) {
  event.preventDefault();
  showError("");
  const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const button = $("create");
  button.disabled = true;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rules: formRules(), seats }),
    });
    let answer = null;
    try {
      answer = await response.json();
    } catch {
      answer = null;
    }
    if (!response.ok || answer === null) {
      const text = answer && answer.error ? `${answer.error}: ${answer.message}` : `the server answered ${response.status}`;
      showError(text);
      return;
    }
    showLinks(answer);
  } catch {
    showError("the server cannot be reached");
  } finally {
    button.disabled = false;
  }
}

function startCreatePage() {
  document.title = "dominocore: new table";
  $("create-page").hidden = false;
  $("game").addEventListener("change", () => {
    $("set").value = DEFAULT_SET[$("game").value.split(":")[0]] ?? 6;
  });
  $("players").addEventListener("input", seatSelects);
  $("players").addEventListener("change", seatSelects);
  $("create-form").addEventListener("submit", createTable);
  seatSelects();
}

// ================================================================== table

const table = {
  token: "",
  socket: null,
  state: null,
  selected: null, // the tile chosen in the hand, waiting for an end
  waiting: false, // a move or next was sent; its answer has not come yet
  stopped: false, // the token grants nothing: no reconnecting
  retries: 0,
  timer: null,
  svg: null,
};

const live = () => table.socket !== null && table.socket.readyState === WebSocket.OPEN;

function setConnection(text) {
  $("conn").textContent = text;
  $("conn").hidden = !text;
}

function send(message) {
  if (!live()) return false;
  table.socket.send(JSON.stringify({ v: 1, ...message }));
  return true;
}

function act(message) {
  if (table.waiting || !send(message)) return;
  showError("");
  table.waiting = true;
  table.selected = null;
  render();
}

function play(move) {
  const { view } = table.state;
  act({ type: "move", move, stamp: { round_id: view.round_id, move_number: view.move_number } });
}

function connect() {
  clearTimeout(table.timer);
  if (table.stopped) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  let socket;
  try {
    socket = new WebSocket(`${scheme}//${location.host}/ws`);
  } catch {
    reconnectLater();
    return;
  }
  table.socket = socket;
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ v: 1, type: "hello", token: table.token }));
  });
  socket.addEventListener("message", (event) => {
    if (socket === table.socket) receive(event.data);
  });
  socket.addEventListener("close", () => {
    if (socket !== table.socket) return;
    table.socket = null;
    table.waiting = false;
    if (table.state) render();
    reconnectLater();
  });
}

/** Try again after 0.5, 1, 2, 4, then every 8 seconds (give or take a quarter). */
function reconnectLater() {
  if (table.stopped) return;
  const delay = Math.min(8000, 500 * 2 ** table.retries) * (0.75 + Math.random() / 2);
  table.retries += 1;
  setConnection(`connection lost: reconnecting in ${Math.max(1, Math.round(delay / 1000))} s…`);
  clearTimeout(table.timer);
  table.timer = setTimeout(connect, delay);
}

function reconnectNow() {
  if (!table.stopped && table.socket === null) {
    table.retries = 0;
    connect();
  }
}

function receive(data) {
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    return;
  }
  if (message === null || typeof message !== "object") return;
  if (message.type === "state") {
    table.state = message;
    table.retries = 0;
    table.waiting = false;
    setConnection("");
    render();
  } else if (message.type === "error") {
    table.waiting = false;
    showError(`${message.code}: ${message.message}`);
    if (message.code === "bad_token") {
      table.stopped = true;
      $("turn").textContent = "this link grants no seat at any table";
      setConnection("");
    }
    if (table.state) render();
  }
}

// ------------------------------------------------------------------ drawing

// Pips on a 3 x 3 grid, [row, column], for the values 0 to 9 (higher values
// are written as numbers).
const SIX = [[0, 0], [1, 0], [2, 0], [0, 2], [1, 2], [2, 2]];
const PIPS = [
  [], [[1, 1]], [[0, 0], [2, 2]], [[0, 0], [1, 1], [2, 2]], [[0, 0], [0, 2], [2, 0], [2, 2]],
  [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]], SIX, [...SIX, [1, 1]], [...SIX, [0, 1], [2, 1]],
  [...SIX, [0, 1], [1, 1], [2, 1]],
];

/** A vertical domino, 28 x 54, the tile's first number on top. */
function domino(tile) {
  const [a, b] = tile.split("-").map(Number);
  const svg = svgElement("svg", { viewBox: "0 0 28 54", class: "domino", "aria-hidden": "true", focusable: "false" });
  svg.append(svgElement("rect", { x: 0.75, y: 0.75, width: 26.5, height: 52.5, rx: 4, class: "face" }));
  svg.append(svgElement("line", { x1: 4, y1: 27, x2: 24, y2: 27, class: "bar" }));
  [a, b].forEach((value, half) => {
    const top = half * 27;
    if (value < PIPS.length) {
      for (const [row, col] of PIPS[value]) {
        svg.append(svgElement("circle", { cx: 7 + 7 * col, cy: top + 6.5 + 7 * row, r: 2.4, class: "pip" }));
      }
    } else {
      const text = svgElement("text", { x: 14, y: top + 18, "text-anchor": "middle", class: "number" });
      text.textContent = String(value);
      svg.append(text);
    }
  });
  return svg;
}

function gameName(rules) {
  const name = GAME_NAMES[rules.game] ?? String(rules.game);
  return rules.rule_set ? `${name} (${rules.rule_set})` : name;
}

function seatName(k, state) {
  return state.role === "seat" && k === state.seat ? `seat ${k} (you)` : `seat ${k}`;
}

/** The ends where the tile may go, as strings of end ids. */
function legalEnds(view, tile) {
  const prefix = `${tile}@`;
  return view.legal_moves.filter((m) => m.startsWith(prefix)).map((m) => m.slice(prefix.length));
}

function trainName(train, view, state) {
  if (train === null || train === undefined) return "";
  if (train >= view.hand_sizes.length) return "Mexican train";
  return state.role === "seat" && train === state.seat ? "your train" : `seat ${train}'s train`;
}

function resultText(view, state) {
  const { reason, out_seat: out, points } = view.result;
  const how = reason === "out" && out !== null && out >= 0 ? `${seatName(out, state)} went out`
    : reason === "blocked" ? "the game is blocked" : reason === "target" ? "the target was reached" : String(reason);
  return `${how[0].toUpperCase()}${how.slice(1)}; points: ${points.map((p, k) => `${seatName(k, state)} ${p}`).join(", ")}.`;
}

function render() {
  const state = table.state;
  const { view, seat, role, seats, match, svg } = state;
  const isSeat = role === "seat";
  const over = view.result !== null && view.result !== undefined;
  const mine = isSeat && !over && view.current_player === seat;
  const canAct = mine && live() && !table.waiting;
  const rules = view.rules;

  $("title").textContent = `${gameName(rules)}, double-${rules.set}, round ${view.round_index}` +
    (isSeat ? ` · you are seat ${seat}` : " · spectator");
  document.title = `${mine ? "● your turn · " : ""}dominocore: ${gameName(rules)}`;

  // whose turn, the result, the end of the match
  const turn = $("turn");
  turn.dataset.moveNumber = String(view.move_number);
  const mover = view.current_player;
  turn.textContent = match.over ? "match over" : over ? "round over" : mine ? "your turn"
    : `${seatName(mover, state)} (${seats[mover]?.kind ?? "?"}) to move`;
  turn.classList.toggle("mine", mine);
  $("result").textContent = over ? resultText(view, state) : "";
  $("match-over").hidden = !match.over;
  $("winners").textContent = match.over
    ? `Match over. ${match.winners.length === 1 ? "Winner" : "Winners"}: ${match.winners.map((k) => seatName(k, state)).join(", ")}.`
    : "";
  const record = $("record");
  record.hidden = !match.over;
  record.href = `/api/record?token=${encodeURIComponent(table.token)}`;
  $("next").hidden = !(isSeat && over && !match.over);
  $("next").disabled = !live() || table.waiting;

  // the layout, drawn by the server from public fields only
  if (svg !== table.svg) {
    $("layout").innerHTML = svg;
    table.svg = svg;
  }

  // the hand, the ends, draw and pass (a spectator has none of them)
  $("controls").hidden = !isSeat;
  $("ends-box").hidden = over;
  if (table.selected !== null && !(canAct && legalEnds(view, table.selected).length)) table.selected = null;
  const targets = table.selected === null ? [] : legalEnds(view, table.selected);
  const hand = $("hand");
  hand.replaceChildren();
  for (const tile of isSeat ? view.hand : []) {
    const playable = mine && legalEnds(view, tile).length > 0;
    const button = element("button", undefined, { type: "button", class: "tile", "data-tile": tile, title: tile });
    button.append(domino(tile), element("span", tile, { class: "label" }));
    button.classList.toggle("playable", playable);
    button.classList.toggle("selected", tile === table.selected);
    button.classList.toggle("drawn", tile === view.drawn_tile);
    button.setAttribute("aria-pressed", String(tile === table.selected));
    button.disabled = !(playable && canAct);
    button.addEventListener("click", () => {
      table.selected = table.selected === tile ? null : tile;
      render();
    });
    hand.append(button);
  }
  if (isSeat && view.hand.length === 0) hand.append(element("span", "no tiles", { class: "hint" }));
  const ends = $("ends");
  ends.replaceChildren();
  for (const [id, number, train] of isSeat ? view.open_ends : []) {
    const button = element("button", undefined, { type: "button", class: "end", "data-end": id });
    button.append(element("span", `end ${id}`, { class: "id" }));
    button.append(element("span", number === null ? "lead" : String(number), { class: "number" }));
    const trainText = trainName(train, view, state);
    if (trainText) button.append(element("span", trainText, { class: "train" }));
    const legal = targets.includes(String(id));
    button.classList.toggle("legal", legal);
    button.disabled = !(legal && canAct);
    button.addEventListener("click", () => {
      if (table.selected !== null) play(`${table.selected}@${id}`);
    });
    ends.append(button);
  }
  const hint = !mine ? "" : table.waiting ? "sending…" : table.selected !== null ? `place ${table.selected} on a highlighted end`
    : hand.querySelector("button.tile.playable") ? "choose a tile" : "no tile fits";
  $("ends-hint").textContent = hint ? `(${hint})` : "";
  for (const which of ["draw", "pass"]) {
    $(which).hidden = !(isSeat && view.legal_moves.includes(which));
    $(which).disabled = !canAct;
  }
  // the same ends in the picture: highlighted, and clickable
  for (const node of $("layout").querySelectorAll("g.end[data-end]")) {
    node.classList.toggle("legal", canAct && targets.includes(node.getAttribute("data-end")));
  }

  // the seats, the yard, the scores and the history
  const list = $("seat-list");
  list.replaceChildren();
  seats.forEach((s, k) => {
    const item = element("li");
    item.append(element("span", seatName(k, state), { class: "who" }));
    item.append(element("span", s.kind, { class: "kind" }));
    item.append(element("span", `${view.hand_sizes[k]} ${view.hand_sizes[k] === 1 ? "tile" : "tiles"}`, { class: "count" }));
    if (SCORES_IN_PLAY.has(rules.game)) item.append(element("span", `${view.play_points[k]} in play`, { class: "points" }));
    if (view.markers && view.markers[k]) item.append(element("span", "train open", { class: "marker" }));
    if (!s.connected) item.append(element("span", "away", { class: "away" }));
    item.classList.toggle("to-move", !over && k === mover);
    list.append(item);
  });
  $("yard").textContent = rules.game === "block" ? `yard (out of play): ${view.yard_size} tiles` : `yard: ${view.yard_size} tiles`;

  const scores = $("scores");
  scores.replaceChildren();
  const head = element("tr");
  head.append(element("th", "round"), ...seats.map((_, k) => element("th", isSeat && k === seat ? "you" : `#${k}`, { scope: "col", title: `seat ${k}` })));
  scores.append(head);
  match.rounds.forEach((points, r) => {
    const row = element("tr");
    row.append(element("td", String(r)), ...points.map((p) => element("td", String(p))));
    scores.append(row);
  });
  const totals = element("tr", undefined, { class: "totals" });
  totals.append(element("td", "total"), ...match.totals.map((p) => element("td", String(p))));
  scores.append(totals);

  const history = $("history");
  const atBottom = history.scrollTop + history.clientHeight >= history.scrollHeight - 4;
  history.replaceChildren();
  for (const [who, move, drawn, points] of view.history) {
    let text = `${seatName(who, state)}: ${move}`;
    if (drawn) text += ` (drew ${drawn})`;
    if (points) text += `, +${points} points`;
    history.append(element("li", text));
  }
  if (atBottom) history.scrollTop = history.scrollHeight;
}

function startTablePage(token) {
  table.token = token;
  $("table-page").hidden = false;
  $("draw").addEventListener("click", () => play("draw"));
  $("pass").addEventListener("click", () => play("pass"));
  $("next").addEventListener("click", () => act({ type: "next" }));
  $("layout").addEventListener("click", (event) => {
    const end = event.target instanceof Element ? event.target.closest("g.end.legal") : null;
    if (end && table.selected !== null) play(`${table.selected}@${end.getAttribute("data-end")}`);
  });
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });
  setInterval(() => send({ type: "ping" }), 25000); // keeps proxies from closing an idle connection
  connect();
}

// ================================================================== start

let token = "";
try {
  token = decodeURIComponent(location.hash.slice(1));
} catch {
  token = "";
}
window.addEventListener("hashchange", () => location.reload());
if (token) startTablePage(token);
else startCreatePage();
