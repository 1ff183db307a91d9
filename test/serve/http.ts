import http from "node:http";
import net from "node:net";

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Ask {
  method?: string;
  host: string;
  path: string;
  headers?: Record<string, string>;
}

/** One request with an explicit Host (fetch forbids setting it), no agent, body read whole. */
export function ask(
  port: number,
  { method = "GET", host, path, headers = {} }: Ask,
): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = http.request(
      { host: "127.0.0.1", port, method, path, headers: { Host: host, ...headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", fail);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.on("error", fail);
    req.end();
  });
}

/** Bytes written as they are (for request lines no HTTP client would send); returns the status. */
export function rawStatus(
  port: number,
  request: Buffer | string,
): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error("timeout")));
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", fail);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      done({ status: match ? Number(match[1]) : 0, text });
    });
  });
}
