// The page of `dominocore serve` (docs/serve.md): the form that creates a
// table, and the table itself, drawn from the server's `state` messages.
// Text from the server goes in through textContent only; the one piece of
// markup is the layout's SVG, which the server draws.

const $ = (id) => document.getElementById(id);
const KINDS = ["human", "random", "greedy", "ismcts-0.1", "ismcts-0.5", "ismcts-2"];
const DEFAULT_SET = { chickenfoot: 9, mexican_train: 12 };

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

function element(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// ------------------------------------------------------------------ create

function seatSelects() {
  const players = Math.max(2, Math.min(8, Number($("players").value) || 2));
  const box = $("seats");
  while (box.children.length - 1 > players) box.lastElementChild.remove();
  while (box.children.length - 1 < players) {
    const k = box.children.length - 1;
    const select = element("select", undefined, { "data-seat": k, "aria-label": `seat ${k}` });
    for (const kind of KINDS) select.append(element("option", kind, { value: kind }));
    select.value = k === 0 ? "human" : "greedy";
    const label = element("label", `seat ${k} `);
    label.append(select);
    box.append(label);
  }
}

function gameRules() {
  const [game, ruleSet] = $("game").value.split(":");
  const rules = { game, players: Number($("players").value), set: Number($("set").value) };
  if (ruleSet) rules.rule_set = ruleSet;
  return rules;
}

async function createTable(event) {
  event.preventDefault();
  showError("");
  const seats = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const answer = await fetch("/api/tables", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules: gameRules(), seats }),
  });
  const data = await answer.json();
  if (!answer.ok) return showError(`${data.error}: ${data.message}`);
  const list = $("link-list");
  list.replaceChildren();
  const link = (token) => new URL(`/play#${token}`, location.href).href;
  data.seats.forEach((token, k) => {
    if (token === null) return;
    const a = element("a", link(token), { class: "seat-link", "data-seat": k, href: link(token), target: "_blank" });
    list.append(element("li", `seat ${k}: `));
    list.lastElementChild.append(a);
  });
  const spectator = element("a", link(data.spectator), {
    class: "spectator-link", href: link(data.spectator), target: "_blank",
  });
  list.append(element("li", "spectator: "));
  list.lastElementChild.append(spectator);
  $("links").hidden = false;
}

function startCreatePage() {
  $("create-page").hidden = false;
  $("game").addEventListener("change", () => {
    $("set").value = DEFAULT_SET[$("game").value.split(":")[0]] ?? 6;
    if ($("game").value === "block") $("players").value = 2;
    seatSelects();
  });
  $("players").addEventListener("input", seatSelects);
  $("create-form").addEventListener("submit", createTable);
  seatSelects();
}

// ------------------------------------------------------------------ table

const table = { token: "", socket: null, state: null, selected: null, retry: 500, closing: false };

function send(message) {
  if (table.socket && table.socket.readyState === WebSocket.OPEN) {
    table.socket.send(JSON.stringify({ v: 1, ...message }));
  }
}

function play(move) {
  const view = table.state.view;
  send({ type: "move", move, stamp: { round_id: view.round_id, move_number: view.move_number } });
  table.selected = null;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws`);
  table.socket = socket;
  socket.addEventListener("open", () => {
    table.retry = 500;
    socket.send(JSON.stringify({ v: 1, type: "hello", token: table.token }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      showError("");
      table.state = message;
      render();
    } else if (message.type === "error") {
      showError(`${message.code}: ${message.message}`);
      if (message.code === "bad_token") table.closing = true;
    }
  });
  socket.addEventListener("close", () => {
    if (table.closing) return;
    setTimeout(connect, table.retry); // reconnect, backing off to 8 s
    table.retry = Math.min(table.retry * 2, 8000);
  });
}

function legalEnds(tile) {
  const moves = table.state.view.legal_moves;
  return moves.filter((m) => m.startsWith(`${tile}@`)).map((m) => m.split("@")[1]);
}

function render() {
  const { view, seat, role, seats, match, svg } = table.state;
  const mine = role === "seat" && view.current_player === seat;
  const title = `${view.rules.game.replace(/_/g, " ")}${view.rules.rule_set ? ` (${view.rules.rule_set})` : ""}, ` +
    `double-${view.rules.set}, round ${view.round_index}` + (role === "seat" ? `; you are seat ${seat}` : "; spectator");
  $("title").textContent = title;
  const turn = $("turn");
  turn.dataset.moveNumber = view.move_number;
  turn.textContent = view.result ? "round over" : mine ? "your turn" : `seat ${view.current_player} to move`;
  turn.className = mine ? "mine" : "";
  $("layout").innerHTML = svg; // drawn by the server from public fields only

  // the hand, the ends, draw and pass
  const hand = $("hand");
  hand.replaceChildren();
  if (table.selected && !legalEnds(table.selected).length) table.selected = null;
  for (const tile of view.hand) {
    const playable = mine && legalEnds(tile).length > 0;
    const button = element("button", tile, { class: "tile", "data-tile": tile });
    if (playable) button.classList.add("playable");
    if (tile === table.selected) button.classList.add("selected");
    button.disabled = !playable;
    button.addEventListener("click", () => { table.selected = tile; render(); });
    hand.append(button);
  }
  const ends = $("ends");
  ends.replaceChildren();
  const legal = table.selected ? legalEnds(table.selected) : [];
  for (const [id, number, train] of view.open_ends) {
    const label = `end ${id}` + (number === null ? "" : ` (${number})`) + (train === null ? "" : ` train ${train}`);
    const button = element("button", label, { class: "end", "data-end": id });
    const ok = legal.includes(String(id));
    if (ok) button.classList.add("legal");
    button.disabled = !ok;
    button.addEventListener("click", () => play(`${table.selected}@${id}`));
    ends.append(button);
  }
  $("draw").hidden = !view.legal_moves.includes("draw");
  $("pass").hidden = !view.legal_moves.includes("pass");

  // the seats, the yard, the scores and the history
  const list = $("seat-list");
  list.replaceChildren();
  seats.forEach((s, k) => {
    const who = k === seat && role === "seat" ? "you" : s.kind;
    const item = element("li", `seat ${k} (${who}): ${view.hand_sizes[k]} tiles` + (s.connected ? "" : ", away"));
    if (k === view.current_player) item.classList.add("to-move");
    list.append(item);
  });
  $("yard").textContent = `yard: ${view.yard_size} tiles`;
  const scores = $("scores");
  scores.replaceChildren();
  const head = element("tr");
  head.append(element("th", "round"), ...seats.map((_, k) => element("th", `seat ${k}`)));
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
  history.replaceChildren();
  for (const [who, move, drawn, points] of view.history) {
    history.append(element("li", `seat ${who}: ${move}` + (drawn ? ` (${drawn})` : "") + (points ? `, ${points} points` : "")));
  }
  history.scrollTop = history.scrollHeight;

  // the end of a round and of the match
  const [reason, out, points] = view.result ? [view.result.reason, view.result.out_seat, view.result.points] : [];
  $("result").textContent = view.result
    ? `(${reason}${out !== null && out !== undefined && out >= 0 ? `: seat ${out} went out` : ""}); points ${points.join(", ")}.` +
      (match.over ? ` Match over: seat ${match.winners.join(", ")} won.` : "")
    : "";
  $("next").hidden = !(view.result && !match.over && role === "seat");
  const record = $("record");
  record.hidden = !match.over;
  record.href = `/api/record?token=${encodeURIComponent(table.token)}`;
}

function startTablePage(token) {
  table.token = token;
  $("table-page").hidden = false;
  $("draw").addEventListener("click", () => play("draw"));
  $("pass").addEventListener("click", () => play("pass"));
  $("next").addEventListener("click", () => send({ type: "next" }));
  connect();
}

const token = location.hash.slice(1);
if (location.pathname === "/play" && token) startTablePage(token);
else startCreatePage();
