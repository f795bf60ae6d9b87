// Talking to the server (docs/PROTOCOL.md): JSON over HTTP, and one websocket per table
// that comes back by itself after a dropped network or a sleeping laptop.
import { currentLanguage, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(body, status) {
    super(body.message || t("web.error.http", { status }));  // the server's own words, in the page's language
    this.code = body.code || "http";
    this.status = status;
  }
}

/** ``path`` asking for the page's language: the server writes its refusals in it (?lang=, and Accept-Language). */
export function inLanguage(path) {
  if (/[?&]lang=/.test(path)) return path;
  return `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(currentLanguage())}`;
}

export async function api(path, body) {
  const headers = { "Accept-Language": currentLanguage() };
  const init = body === undefined ? { headers } : { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(inLanguage(path), init);
  } catch (err) {
    throw new ApiError({ code: "offline", message: t("web.error.offline") }, 0);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(data, response.status);
  return data;
}

export const tokenKey = (code) => `unokart.token.${code.toUpperCase()}`;

/**
 * One table's websocket. ``hello()`` gives the first message (resume or watch) for every
 * (re)connection; ``onMessage`` gets every server message; ``onStatus`` gets
 * "open" | "connecting" | "closed".
 */
export class TableSocket {
  constructor(code, { hello, onMessage, onStatus }) {
    this.code = code;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.retry = 0;
    this.closed = false;
    this.nextId = 1;
    this.connect();
    // A phone waking up or a network coming back should not wait for the back-off.
    this.wake = () => { if (!this.closed && (!this.ws || this.ws.readyState > 1)) this.connect(); };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
  }

  connect() {
    clearTimeout(this.timer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = (this.ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}`));
    this.onStatus("connecting");
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus("open");
      this.send(this.hello());
      this.ping = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (frame) => {
      let message;
      try { message = JSON.parse(frame.data); } catch { return; }
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      clearInterval(this.ping);
      if (this.ws !== ws || this.closed) return;
      if (event.code === 4404) { this.closed = true; this.onStatus("closed"); return; }
      this.onStatus("connecting");
      // Back off, but never past 3 s: a player waiting for their table wants it back quickly.
      const delay = Math.min(3000, 300 * 2 ** this.retry++) * (0.75 + Math.random() / 2);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  /** Send one message; returns its id (the server answers with "re": id). */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = message.id ?? `m${this.nextId++}`;
    this.ws.send(JSON.stringify({ ...message, id }));
    return id;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    if (this.ws) this.ws.close();
  }
}
