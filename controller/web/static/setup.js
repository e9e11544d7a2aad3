// The set-up page: polls /api/setup/state and runs the tests, every call behind the token.
"use strict";

const $ = (id) => document.getElementById(id);
const LAMPS = [...Array(24).keys()].map((i) => [i, String(i + 1)])
  .concat([[24, "bar 0"], [25, "bar 1"], [26, "tray 0"], [27, "tray 1"], [28, "status"]]);
const POLL_MS = 700;
let walking = null;

// One call of the API: its JSON answer, or null once the failure is said (the state's
// polling only says when the token is missing, or the board does not answer).
async function call(path, what, body, quiet = false) {
  const { response, failure } = await ask(path, what, body, quiet);
  const status = failure ? failure.status : 200;
  const locked = status === 401 || status === 403;
  $("token-needed").hidden = !locked;
  if (locked) $("token-needed").textContent = `Every set-up action is refused: ${failure.error}.`;
  if (quiet && status === 0) {  // the service restarting, the network gone: the polling goes on
    $("game").textContent = "The board does not answer: trying again.";
    $("game").className = "game busy";
  }
  return response ? response.json() : null;
}

function showState(state) {
  window.setupState = state;  // for the browser tests and the curious
  $("board-id").textContent = state.board_id;
  $("links").replaceChildren(...state.links.flatMap((link) => [
    Object.assign(document.createElement("dt"), { textContent: link.link }),
    Object.assign(document.createElement("dd"), { textContent: link.words, className: "link " + link.state }),
  ]));
  $("game").textContent = state.between_games
    ? "Between games: the LED and button tests may run."
    : `A game is being played (${state.phase}): the LED and button tests wait until it is over.`;
  $("game").className = "game " + (state.between_games ? "free" : "busy");
  $("orientation").textContent = state.orientation + (state.orientation_pending ? " (to confirm)" : " (confirmed)");
  for (const button of $("lamps").children) {
    button.classList.toggle("lit", state.lamp !== null && Number(button.dataset.location) === state.lamp.location);
  }
  $("lamp-lit").textContent = state.lamp ? `lit: ${state.lamp.name}, ${state.lamp.colour}` : (state.has_leds ? "no test lamp lit" : "this board has no LEDs");
  $("button-test").textContent = state.testing_buttons ? "Button test on" : "Start button test";
  $("button-test").classList.toggle("on", state.testing_buttons);
  const presses = state.presses.slice().reverse();
  if (presses.length) {
    const last = presses[0];
    $("last-press").textContent = `${last.button} pressed at ${new Date(last.at * 1000).toLocaleTimeString()}`;
  }
  $("presses").replaceChildren(...presses.slice(1).map((p) => Object.assign(document.createElement("li"), {
    textContent: `${p.button} at ${new Date(p.at * 1000).toLocaleTimeString()}`,
  })));
  $("camera-card").classList.toggle("absent", !state.has_camera);
  $("sensors-card").classList.toggle("absent", !state.has_sensors);
}

async function poll() {
  const state = await call("/api/setup/state", "state", undefined, true);
  if (state) showState(state);
  setTimeout(poll, POLL_MS);
}

async function light(location) {
  const state = await call("/api/setup/lamp", "light", { location, colour: $("lamp-colour").value });
  if (state) {
    showState(state);
    report(location === null ? "LED test over" : `lit: ${state.lamp.name}`, true);
  }
  return state !== null;
}

async function walk() {
  const mine = walking = {};
  for (const [location] of LAMPS) {
    if (walking !== mine || !(await light(location))) return;
    await new Promise((done) => setTimeout(done, 600));
  }
  if (walking === mine) await light(null);
}

async function buttonTest(on) {
  const state = await call("/api/setup/buttons", "button test", { on });
  if (state) {
    showState(state);
    report(on ? "button test on: press each button" : "button test over", true);
  }
}

function showCamera(look) {
  $("markers").textContent = look.markers.length ? look.markers.join(", ") : "none found";
  $("calibration").textContent = `${look.calibration} (${look.config})`;
  const f = look.focus;
  $("focus").textContent = f.blur_px === null ? "a flat picture, no edge at all: is the lens covered?"
    : `edges blur over ${f.blur_px} px: ${f.sharp ? "sharp" : "out of focus: turn the lens"} (sharp at ${f.limit_px} px or less)`;
  const e = look.exposure;
  $("exposure").textContent = `mean ${e.mean} / 255, ${e.dark_pct}% black, ${e.bright_pct}% white`;
  const dice = look.dice;
  $("dice-read").textContent = dice.values.length ? `${dice.values.join("-")} (${dice.verdict}${dice.reason ? ": " + dice.reason : ""})` : `none (${dice.verdict})`;
  $("frame").src = look.frame;
  $("board-view").hidden = !look.board;
  if (look.board) $("board-view").src = look.board;
}

async function look() {
  report("looking…", true);
  const seen = await call("/api/setup/camera", "look");
  if (seen) {
    showCamera(seen);
    report(`camera: ${seen.size[0]}×${seen.size[1]}, markers ${seen.markers.join(", ") || "none"}`, true);
  }
}

async function calibrate() {
  report("calibrating…", true);
  const done = await call("/api/setup/calibrate", "calibrate", {});
  if (done) {
    showCamera(done);
    report(`calibration stored in ${done.stored} (markers ${done.markers.join(", ")}); the dice reader takes it at the next start`, true);
  }
}

// The heat map's columns, as the board lies: points 13..24 on top, 12..1 below, the bars
// in the middle and the trays at the right (as board.js draws them).
const HEAT_ROWS = [
  [12, 13, 14, 15, 16, 17, 24, 18, 19, 20, 21, 22, 23, 27],
  [11, 10, 9, 8, 7, 6, 25, 5, 4, 3, 2, 1, 0, 26],
];

function heatColour(reading, hall) {
  const span = Math.max(1, (hall.fault_high - hall.fault_low) / 2);
  const strength = Math.min(1, Math.abs(reading - hall.mid) / span);
  const hue = reading >= hall.mid ? 210 : 30;  // one colour's magnet, or the other's
  return `hsl(${hue}, 80%, ${Math.round(92 - 52 * strength)}%)`;
}

function showSensors(seen) {
  const bySlot = new Map(seen.slots.map((s) => [`${s.location}/${s.slot}`, s]));
  const rows = HEAT_ROWS.map((row, r) => {
    const line = document.createElement("div");
    line.className = "heat-row" + (r ? " bottom" : "");
    for (const location of row) {
      const column = document.createElement("div");
      column.className = "heat-col";
      const label = Object.assign(document.createElement("span"), { className: "heat-label", textContent: LAMPS[location][1] });
      const cells = [...Array(seen.layout[location]).keys()].map((slot) => {
        const s = bySlot.get(`${location}/${slot}`);
        const cell = document.createElement("span");
        cell.className = "heat-cell " + s.health;
        cell.dataset.slot = s.label;
        cell.title = `${s.label}: ${s.reading} counts, ${s.class}, ${s.health}`;
        cell.style.background = s.health === "ok" ? heatColour(s.reading, seen.hall) : "";
        if (s.health !== "ok") cell.textContent = s.health[0].toUpperCase();
        return cell;
      });
      if (r) cells.reverse();  // slots count from the board's edge
      column.replaceChildren(...(r ? [...cells, label] : [label, ...cells]));
      line.appendChild(column);
    }
    return line;
  });
  $("heat").replaceChildren(...rows);
  const bad = seen.slots.filter((s) => s.health !== "ok");
  $("sensor-summary").textContent = bad.length
    ? `${bad.length} of ${seen.slots.length} slots faulty (from ${seen.sets} readings of each)`
    : `every one of the ${seen.slots.length} slots reads right (from ${seen.sets} readings of each)`;
  $("faults").replaceChildren(...bad.map((s) => Object.assign(document.createElement("li"), { textContent: s.reason })));
}

async function readSensors() {
  report("reading the sensors…", true);
  const seen = await call(`/api/setup/sensors?start=${$("set-out").checked ? 1 : 0}`, "read the sensors");
  if (seen) {
    showSensors(seen);
    report("sensors read", true);
  }
}

async function orientation(swap) {
  const done = await call("/api/action", "orientation", swap ? { action: "orientation", swap: true } : { action: "orientation" });
  if (done) report("orientation confirmed", true);
}

function setup() {
  restoreToken();
  for (const [location, label] of LAMPS) {
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: label });
    button.dataset.location = String(location);
    button.onclick = () => { walking = null; light(location); };
    $("lamps").appendChild(button);
  }
  $("walk").onclick = () => walk();
  $("lamp-off").onclick = () => { walking = null; light(null); };
  $("button-test").onclick = () => buttonTest(true);
  $("button-test-end").onclick = () => buttonTest(false);
  $("read-sensors").onclick = () => readSensors();
  $("look").onclick = () => look();
  $("calibrate").onclick = () => calibrate();
  $("confirm-orientation").onclick = () => orientation(false);
  $("swap-orientation").onclick = () => orientation(true);
  poll();
}

setup();
