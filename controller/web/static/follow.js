// What the board's page and the hall's page share: following the server's event stream,
// with a badge that says whether it is live.
"use strict";

const RECONNECT_MS = 3000;

function follow(badge, onData) {
  const source = new EventSource("/api/stream");
  source.onopen = () => { badge.textContent = "live"; badge.className = "badge live"; };
  source.onerror = () => {
    badge.textContent = "reconnecting…";
    badge.className = "badge down";
    // The browser opens again a stream that broke, but not one refused (a 429 while the
    // page holds its most connections): that one is opened again here.
    if (source.readyState === EventSource.CLOSED) setTimeout(() => follow(badge, onData), RECONNECT_MS);
  };
  source.onmessage = (message) => onData(JSON.parse(message.data));
}
