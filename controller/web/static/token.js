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

// A call of the API with the token (a POST of `body` as JSON when given), as
// `{response, failure}`: its response when it succeeded, else null and why
// (`failure`: `{status, error}`, status 0 when nothing answers: the service restarting, the
// network gone), once the result line says so (`what` refused, with the status and the
// reason). `quiet`: the caller says it its own way.
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
    const failure = { status: 0, error: `the board does not answer (${error.message})` };
    if (!quiet) report(`${what}: ${failure.error}`, false);
    return { response: null, failure };
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({ error: response.statusText }));
    const failure = { status: response.status, error: data.error };
    if (!quiet) report(`${what} refused (${response.status}): ${data.error}`, false);
    return { response: null, failure };
  }
  return { response, failure: null };
}
