// What the board's page and the set-up page share: the board's token, typed once and kept
// in this browser, and the line that says how an action went.
"use strict";

function token() {
  const value = document.getElementById("token").value.trim();
  try { localStorage.setItem("tabula-token", value); } catch (e) { /* private mode */ }
  return value;
}

function restoreToken() {
  try { document.getElementById("token").value = localStorage.getItem("tabula-token") || ""; } catch (e) { /* private mode */ }
}

function report(text, ok) {
  const line = document.getElementById("action-result");
  line.textContent = text;
  line.className = "action-result " + (ok ? "ok" : "refused");
}
