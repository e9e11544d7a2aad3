// Draws a Tabula board status (controller/status.py's BoardStatus JSON) as SVG.
// Shared by the board's page and the hub's grid; no framework, no build step.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
// Geometry of the 720 x 480 view box: two halves of six points, the bar, the trays.
const G = { w: 720, h: 480, margin: 16, point: 46, bar: 44, tray: 40, r: 19 };
G.left = G.margin;                       // left edge of the left half
G.barX = G.left + 6 * G.point;           // left edge of the bar
G.right = G.barX + G.bar;                // left edge of the right half
G.trayX = G.right + 6 * G.point + 12;    // left edge of the trays
G.pointH = 190;

const VERDICT_WORDS = {
  waiting: "Waiting for the play",
  partial: "Part of the roll played",
  in_hand: "A checker is in hand",
  complete: "Legal play complete",
  illegal: "Illegal play!",
  inconsistent: "Sensors disagree: please check the board",
};
const PHASE_WORDS = {
  orientation: "sides to confirm",
  opening: "opening roll",
  roll: "to roll",
  moving: "to move",
  flagged: "illegal play flagged",
  "confirm-dice": "dice to confirm",
  "manual-dice": "dice to enter by hand",
  "cube-offered": "cube offered",
  "resign-offered": "resignation offered",
  "game-over": "game over",
  "match-over": "match over",
};

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// The 28 cells [white, black] of a status: the sensors' cells, else the accepted position.
function cellsOf(status) {
  if (status.cells && status.cells.length === 28) return status.cells;
  const p = status.position || [];
  if (p.length !== 26) return Array.from({ length: 28 }, () => [0, 0]);
  const cells = [];
  for (let i = 1; i <= 24; i++) cells.push([Math.max(p[i], 0), Math.max(-p[i], 0)]);
  cells.push([p[25], 0], [0, -p[0]]);
  const onBoard = (side) => cells.reduce((sum, c) => sum + c[side], 0);
  cells.push([15 - onBoard(0), 0], [0, 15 - onBoard(1)]);
  return cells;
}

// Where point n (1..24, player 0's numbering) is: its x centre and whether it is on top.
function pointPlace(n) {
  const col = (n - 1) % 6;
  if (n <= 6) return { x: G.right + (5 - col) * G.point + G.point / 2, top: false };
  if (n <= 12) return { x: G.left + (5 - col) * G.point + G.point / 2, top: false };
  if (n <= 18) return { x: G.left + col * G.point + G.point / 2, top: true };
  return { x: G.right + col * G.point + G.point / 2, top: true };
}

function drawStack(svg, x, yEdge, down, counts, maxShown) {
  // counts: [white, black]; a location holds one colour except during a hit.
  let k = 0;
  const total = counts[0] + counts[1];
  for (let side = 0; side < 2; side++) {
    for (let i = 0; i < counts[side]; i++, k++) {
      if (k >= maxShown) break;
      const y = down ? yEdge + G.r + k * 2 * G.r : yEdge - G.r - k * 2 * G.r;
      el("circle", { cx: x, cy: y, r: G.r - 1, class: side === 0 ? "checker white" : "checker black" }, svg);
    }
  }
  if (total > maxShown) {
    const y = down ? yEdge + G.r + (maxShown - 1) * 2 * G.r : yEdge - G.r - (maxShown - 1) * 2 * G.r;
    const t = el("text", { x, y: y + 6, class: "count" }, svg);
    t.textContent = String(total);
  }
}

function drawDie(svg, x, y, value, size, cls) {
  el("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: size / 6, class: "die " + cls }, svg);
  const pips = {
    1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  }[value] || [];
  for (const [dx, dy] of pips) el("circle", { cx: x + dx * size / 4, cy: y + dy * size / 4, r: size / 11, class: "pip " + cls }, svg);
}

function lightClass(light) {
  if (!light || light.colour === "off") return "led off";
  return `led ${light.colour} ${light.blink}`;
}

// Draw `status` into the <svg> element `svg` (cleared first). opts.mini: the hub's small board.
function drawBoard(svg, status, opts) {
  const mini = opts && opts.mini;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute("viewBox", `0 0 ${G.w} ${G.h}`);
  svg.setAttribute("role", "img");
  const cells = cellsOf(status);
  const lights = status.lights || [];
  el("rect", { x: 0, y: 0, width: G.w, height: G.h, rx: 10, class: "frame" }, svg);
  el("rect", { x: G.left, y: G.margin, width: 6 * G.point, height: G.h - 2 * G.margin, class: "felt" }, svg);
  el("rect", { x: G.right, y: G.margin, width: 6 * G.point, height: G.h - 2 * G.margin, class: "felt" }, svg);
  el("rect", { x: G.barX, y: G.margin, width: G.bar, height: G.h - 2 * G.margin, class: "bar" }, svg);
  for (let n = 1; n <= 24; n++) {
    const { x, top } = pointPlace(n);
    const y0 = top ? G.margin : G.h - G.margin;
    const tip = top ? y0 + G.pointH : y0 - G.pointH;
    const half = G.point / 2 - 2;
    el("polygon", { points: `${x - half},${y0} ${x + half},${y0} ${x},${tip}`, class: n % 2 ? "tri odd" : "tri even", "data-point": n }, svg);
    if (!mini) {
      const label = el("text", { x, y: top ? tip + 16 : tip - 8, class: "label" }, svg);
      label.textContent = String(n);
      el("circle", { cx: x, cy: top ? tip + 28 : tip - 22, r: 5, class: lightClass(lights[n - 1]), "data-led": n - 1 }, svg);
    }
    drawStack(svg, x, y0, top, cells[n - 1], 5);
  }
  // Bars: player 0 (white) enters on points 24..19, at the top; player 1 at the bottom.
  const barMid = G.barX + G.bar / 2;
  drawStack(svg, barMid, G.h / 2 - 8, false, cells[24], 4);
  drawStack(svg, barMid, G.h / 2 + 8, true, cells[25], 4);
  // Trays: white bears off bottom right, black top right.
  const trayH = (G.h - 2 * G.margin) / 2 - 30;
  const trays = [[cells[26][0], G.h - G.margin - trayH, "white"], [cells[27][1], G.margin, "black"]];
  for (const [count, y, colour] of trays) {
    el("rect", { x: G.trayX, y, width: G.tray, height: trayH, class: "tray" }, svg);
    for (let i = 0; i < count; i++) {
      const slab = colour === "white" ? y + trayH - 4 - (i + 1) * 11 : y + 4 + i * 11;
      el("rect", { x: G.trayX + 4, y: slab, width: G.tray - 8, height: 9, rx: 2, class: "checker " + colour }, svg);
    }
  }
  if (!mini) {
    for (const [index, x, y] of [[24, barMid, G.h / 2 - 4], [25, barMid, G.h / 2 + 4], [26, G.trayX + G.tray / 2, G.h - 6], [27, G.trayX + G.tray / 2, 6]]) {
      el("circle", { cx: x, cy: y, r: 4, class: lightClass(lights[index]), "data-led": index }, svg);
    }
    el("circle", { cx: G.trayX + G.tray / 2, cy: G.h / 2, r: 9, class: lightClass(lights[28]), "data-led": "status" }, svg);
  }
  // Dice, on the mover's right-hand half, with the camera's confidence.
  if (status.dice && status.dice.length) {
    const mover = status.turn === 1 ? "black" : "white";
    const cx = status.turn === 1 ? G.left + 3 * G.point : G.right + 3 * G.point;
    status.dice.forEach((d, i) => {
      const x = cx + (i - (status.dice.length - 1) / 2) * 56;
      drawDie(svg, x, G.h / 2, d, 42, mover);
      const conf = status.dice_confidence && status.dice_confidence[i];
      if (!mini && conf !== undefined && conf !== null) {
        const t = el("text", { x, y: G.h / 2 + 40, class: "conf" }, svg);
        t.textContent = `${Math.round(conf * 100)}%`;
      }
    });
  }
  // The cube: in the middle of the bar's left side, or at its owner's side.
  const cubeY = status.cube_owner === 0 ? G.h - G.margin - 40 : status.cube_owner === 1 ? G.margin + 40 : G.h / 2;
  const cubeX = G.left + 6 * G.point + G.bar / 2;
  if (status.cube_offered || status.cube_owner !== null || mini === false || !mini) {
    const g = el("g", { class: status.cube_offered ? "cube offered" : "cube", "data-owner": String(status.cube_owner) }, svg);
    el("rect", { x: cubeX - 17, y: cubeY - 17, width: 34, height: 34, rx: 5 }, g);
    const t = el("text", { x: cubeX, y: cubeY + 7 }, g);
    t.textContent = String(status.cube_value === 1 && status.cube_owner === null ? 64 : status.cube_value);
  }
  if (status.online === false) {
    el("rect", { x: 0, y: 0, width: G.w, height: G.h, class: "offline-veil" }, svg);
  }
}

function verdictWords(status) {
  return VERDICT_WORDS[status.verdict] || status.verdict || "";
}

function phaseWords(phase) {
  return PHASE_WORDS[phase] || phase || "";
}

function scoreWords(status) {
  const what = status.match_length ? `${status.match_length}-point match` : "money play";
  const crawford = status.crawford ? ", Crawford game" : "";
  return `${status.score[0]}–${status.score[1]} (${what}${crawford}), game ${status.game_number}`;
}
