// The hub's page: one small live board per board id, from /api/stream (Server-Sent Events).
"use strict";

const cards = new Map();
window.tabulaBoards = {};  // board id -> latest card, for the browser tests and the curious

function card(boardId) {
  let node = cards.get(boardId);
  if (node) return node;
  node = document.createElement("article");
  node.className = "card";
  node.dataset.board = boardId;
  node.innerHTML = `<h3><span class="id"></span><span class="badge"></span></h3>
    <svg xmlns="http://www.w3.org/2000/svg"></svg>
    <div class="players"></div><div class="score"></div><div class="turn"></div>
    <ul class="alerts"></ul>`;
  node.querySelector(".id").textContent = boardId;
  const grid = document.getElementById("grid");
  const after = [...grid.children].find((other) => other.dataset.board > boardId);
  grid.insertBefore(node, after || null);
  cards.set(boardId, node);
  return node;
}

function showCard(data) {
  window.tabulaBoards[data.board_id] = data;
  const node = card(data.board_id);
  const badge = node.querySelector(".badge");
  const online = data.online !== false;
  badge.textContent = data.online === null ? "?" : online ? "online" : "offline";
  badge.className = "badge " + (online ? "live" : "offline");
  node.classList.toggle("offline", !online);
  node.classList.toggle("alerting", online && data.alerts.length > 0);
  const s = data.status;
  if (s) {
    drawBoard(node.querySelector("svg"), Object.assign({}, s, { online }), { mini: true });
    node.querySelector(".players").textContent = `${s.players[0]} – ${s.players[1]}`;
    node.querySelector(".score").textContent = scoreWords(s);
    node.querySelector(".turn").textContent = s.turn === null ? phaseWords(s.phase) : `${s.players[s.turn]} ${phaseWords(s.phase)}`;
  }
  node.querySelector(".alerts").replaceChildren(
    ...data.alerts.map((a) => Object.assign(document.createElement("li"), { textContent: a })));
}

function count(n, word) {
  return `${n} ${word}${n === 1 ? "" : word.endsWith("h") ? "es" : "s"}`;
}

function showSummary(summary) {
  document.getElementById("summary").textContent =
    `${count(summary.boards, "board")}, ${summary.online} online, ${count(summary.events, "event")}, ` +
    `${count(summary.archived, "match")} archived` + (summary.missing ? `, ${count(summary.missing, "event")} lost` : "");
  // The archive folder refused a finished match (a full disk): the hub keeps it and retries.
  const problem = document.getElementById("archive-problem");
  problem.textContent = summary.archive_problem || "";
  problem.hidden = !summary.archive_problem;
}

follow(document.getElementById("connection"), (data) => {
  showSummary(data.summary);
  data.boards.forEach(showCard);
});
