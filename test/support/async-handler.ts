import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

/**
 * An async request handler given to node:http, which ignores what a handler returns. Its promise
 * is dropped on purpose: a rejection stays unhandled, and vitest fails the run on an unhandled
 * rejection, so a broken test server cannot go unnoticed.
 */
export function asyncHandler(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): RequestListener {
  return (req, res) => void handle(req, res);
}
