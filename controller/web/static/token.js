// What the board's page and the set-up page share: the board's token, typed once and kept
// in this browser, the calls of the API with it, and the line that says how one went.
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

// Why the last call failed ({status, error}; status 0: no answer), or null after a success.
let lastFailure = null;

// A call of the API with the token (a POST of `body` as JSON when given): its response when
// it succeeded, else null once the result line says why (`what` refused, with the status
// and the reason; or no answer: the service restarting, the network gone). `quiet`: the
// caller says it its own way, from `lastFailure`.
async function ask(path, what, body, quiet = false) {
  const headers = {};
  const t = token();
  if (t) headers.Authorization = "Bearer " + t;
  const options = { headers };
  if (body !== undefined) {
    options.method = "POST";
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    lastFailure = { status: 0, error: `the board does not answer (${error.message})` };
    if (!quiet) report(`${what}: ${lastFailure.error}`, false);
    return null;
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({ error: response.statusText }));
    lastFailure = { status: response.status, error: data.error };
    if (!quiet) report(`${what} refused (${response.status}): ${data.error}`, false);
    return null;
  }
  lastFailure = null;
  return response;
}
