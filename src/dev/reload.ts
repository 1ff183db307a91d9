import type http from "node:http";
import type { DevHooks } from "../serve/respond.ts";

/** dev's own URLs: under a prefix no build uses (a URL segment starting with `_` is reserved for the output). */
const PREFIX = "/__catalogue/dev/";
const EVENTS = `${PREFIX}events`;
const CLIENT = `${PREFIX}client.js`;

/** What the open pages are told: which build they show, and the problems of the last save, if any. */
export interface DevState {
  /** Changes with every new build (and with every start of dev): a page that saw another one reloads. */
  build: string;
  /** The `FILE:LINE: column: message` lines of the last build that failed; null when it succeeded. */
  problems: string[] | null;
}

/**
 * The reload channel of `catalogue dev`: every HTML page it serves gets a small script, which
 * listens on server-sent events (EventSource reconnects by itself). On each new state the script
 * reloads the page when the build changed, and shows the problems of a failed build over the page
 * (the page itself stays the last good build).
 */
export class ReloadChannel implements DevHooks {
  private readonly clients = new Set<http.ServerResponse>();
  private state: DevState;

  constructor(initial: DevState) {
    this.state = initial;
  }

  update(state: DevState): void {
    this.state = state;
    for (const client of this.clients) send(client, state);
  }

  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    const url = (req.url ?? "").split("?")[0];
    if (url === CLIENT) {
      res.writeHead(200, {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "no-store",
      });
      res.end(CLIENT_SCRIPT);
      return true;
    }
    if (url !== EVENTS) return false;
    res.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
    });
    // The server's idle timeout must not cut a page's channel: a comment line every 20 s keeps it busy.
    const keepAlive = setInterval(() => res.write(": ping\n\n"), 20_000);
    this.clients.add(res);
    res.on("close", () => {
      clearInterval(keepAlive);
      this.clients.delete(res);
    });
    send(res, this.state);
    return true;
  }

  html(page: Buffer): Buffer {
    const text = page.toString("utf8");
    const tag = `<script src="${CLIENT}"></script>`;
    const at = text.lastIndexOf("</body>");
    return Buffer.from(at < 0 ? text + tag : text.slice(0, at) + tag + text.slice(at));
  }

  /** Ends every open channel (the pages reconnect to the next dev started on this port). */
  close(): void {
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}

function send(res: http.ServerResponse, state: DevState) {
  res.write(`event: state\ndata: ${JSON.stringify(state)}\n\n`);
}

/** Served at CLIENT: plain browser JavaScript, no build step. */
const CLIENT_SCRIPT = `// catalogue dev: reloads this page after each rebuild, shows build problems (served in dev only).
(() => {
  let shown = null;
  const events = new EventSource(${JSON.stringify(EVENTS)});
  events.addEventListener("state", (event) => {
    const state = JSON.parse(event.data);
    if (shown !== null && state.build !== shown) return location.reload();
    shown = state.build;
    let box = document.getElementById("catalogue-dev-problems");
    if (state.problems === null) return box && box.remove();
    if (!box) {
      box = document.createElement("pre");
      box.id = "catalogue-dev-problems";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:auto 0 0 0;max-height:50vh;overflow:auto;margin:0;padding:1em;z-index:2147483647;background:#fff0f0;color:#900;border-top:3px solid #c00;font:14px/1.4 monospace;white-space:pre-wrap";
      document.body.append(box);
    }
    box.textContent = "The last save could not be built; this page is the last good build.\\n\\n" + state.problems.join("\\n");
  });
})();
`;
