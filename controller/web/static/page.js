// The board's page: follows /api/stream (Server-Sent Events) and sends the referee's actions.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null;

function show(status) {
  current = status;
  window.tabulaStatus = status;  // for the browser tests and the curious
  drawBoard($("board"), status, {});
  const names = status.players;
  $("board-id").textContent = status.board_id;
  $("player0").textContent = names[0];
  $("player1").textContent = names[1];
  $("score").textContent = scoreWords(status);
  $("turn").textContent = status.turn === null ? phaseWords(status.phase) : `${names[status.turn]} ${phaseWords(status.phase)}`;
  $("pips").textContent = `${names[0]} ${status.pips[0]}, ${names[1]} ${status.pips[1]}`;
  const owner = status.cube_owner === null ? "centred" : `owned by ${names[status.cube_owner]}`;
  $("cube").textContent = `${status.cube_value}, ${owner}${status.cube_offered ? ", offered" : ""}`;
  if (status.dice) {
    const conf = status.dice_confidence ? ` (camera ${status.dice_confidence.map((c) => Math.round(c * 100) + "%").join(", ")})` : "";
    $("dice").textContent = `${status.dice.join("-")}${conf}${status.dice_source ? ", " + status.dice_source : ""}`;
  } else {
    $("dice").textContent = "—";
  }
  $("links").textContent = status.link_text;
  $("mode").textContent = status.mode;
  $("sides").textContent = (status.orientation || "") + (status.orientation_pending ? " (to confirm)" : "");
  $("orientation-row").hidden = !status.orientation_pending;
  // GNU Backgammon's files hold backgammon only: other variants download JSON lines or text.
  const gnubg = !status.variant || status.variant === "backgammon";
  $("download-mat").hidden = $("download-sgf").hidden = !gnubg;
  for (const [index, option] of [...$("resign-player").options].entries()) {
    option.textContent = (status.players || [])[index] || `Player ${index}`;
  }
  $("engine").textContent = status.engine || "—";
  $("hint").textContent = status.hint || "—";
  if (status.play_player === null || status.play_player === undefined) {
    $("last-play").textContent = "—";
    $("best-play").textContent = "—";
  } else {
    const loss = status.play_loss === null ? "" : ` (-${status.play_loss.toFixed(3)})`;
    $("last-play").textContent = `${names[status.play_player]} ${status.play_notation}: ${status.play_grade}${loss}`;
    $("best-play").textContent = status.play_best;
  }
  $("last-play").className = "grade " + (status.play_grade || "");
  $("verdict").textContent = verdictWords(status);
  $("verdict").className = "verdict " + status.verdict;
  $("text").textContent = status.text;
  $("xgid").value = status.xgid;
  $("gnubg-id").value = status.gnubg_id;
  const alerts = $("alerts");
  alerts.replaceChildren(...status.alerts.map((a) => Object.assign(document.createElement("li"), { textContent: a })));
  const moves = $("moves");
  moves.replaceChildren(...status.moves.map((m) => Object.assign(document.createElement("li"), { textContent: m })));
  moves.scrollTop = moves.scrollHeight;
  if (document.activeElement !== $("position")) $("position").value = status.position.join(",");
  document.body.dataset.seq = String(status.seq);
}

async function act(body) {
  const { response } = await ask("/api/action", body.action, body);
  if (response) {
    report(`${body.action}: done`, true);
    show((await response.json()).status);
  }
}

async function download(fmt, path = `/api/export/${fmt}`, suffix = "") {
  const { response } = await ask(path, `download .${fmt}`);
  if (!response) return;
  const blob = await response.blob();
  const link = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: `${current ? current.board_id : "match"}${suffix}.${fmt}` });
  link.click();
  URL.revokeObjectURL(link.href);
  report(`.${fmt} downloaded`, true);
}

async function openReview() {
  report("review: the engine is analysing the match…", true);
  const { response } = await ask("/api/review/html", "review");
  if (!response) return;
  const blob = new Blob([await response.text()], { type: "text/html" });
  window.open(URL.createObjectURL(blob), "_blank");
  report("review opened", true);
}

function setup() {
  for (const id of ["die1", "die2"]) {
    for (let d = 1; d <= 6; d++) $(id).appendChild(Object.assign(document.createElement("option"), { value: d, textContent: d }));
  }
  restoreToken();
  $("enter-dice").onclick = () => act({ action: "enter-dice", dice: [Number($("die1").value), Number($("die2").value)] });
  $("accept").onclick = () => act({ action: "accept" });
  $("demand").onclick = () => act({ action: "demand" });
  $("correct").onclick = () => act({ action: "correct-position", board: $("position").value.split(/[\s,]+/).filter(Boolean).map(Number) });
  $("new-game").onclick = () => act({ action: "new-game" });
  $("new-match").onclick = () => {
    const body = { action: "new-match", length: Number($("length").value) };
    const names = [$("name0").value.trim(), $("name1").value.trim()];
    if (names[0] || names[1]) body.names = names;
    act(body);
  };
  $("confirm-orientation").onclick = () => act({ action: "orientation" });
  $("swap-orientation").onclick = () => act({ action: "orientation", swap: true });
  $("download-mat").onclick = () => download("mat");
  $("download-sgf").onclick = () => download("sgf");
  $("resign").onclick = () =>
    act({ action: "resign", player: Number($("resign-player").value), kind: $("resign-kind").value });
  $("accept-resignation").onclick = () => act({ action: "accept-resignation" });
  $("refuse-resignation").onclick = () => act({ action: "refuse-resignation" });
  $("decline").onclick = () => act({ action: "decline" });
  $("download-jsonl").onclick = () => download("jsonl");
  $("download-txt").onclick = () => download("txt");
  $("hint-button").onclick = () => act({ action: "hint" });
  $("review").onclick = () => openReview();
  $("download-analysed").onclick = () => download("sgf", "/api/review/sgf", "-analysed");
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.onclick = () => {
      const input = $(button.dataset.copy);
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand("copy"));
      else document.execCommand("copy");
    };
  }
  follow($("connection"), show);
}

setup();
