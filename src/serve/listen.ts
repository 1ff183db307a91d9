import path from "node:path";
import { UserError } from "../errors.ts";

/** `--listen ADDR:PORT` of `catalogue config`: an IPv4 address, a host name or `[IPv6]`, and a port. */
export interface Listen {
  /** As written in the configuration (IPv6 in brackets). */
  address: string;
  port: number;
}

export function parseListen(text: string): Listen {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (match === null || port < 1 || port > 65535) {
    throw new UserError(
      `--listen: expected ADDR:PORT like 127.0.0.1:8080 or [::1]:8080, got ${JSON.stringify(text)}`,
    );
  }
  return { address: match[1]!, port };
}

/**
 * The output folder as configurations name it: absolute, but NOT with its link resolved, so the
 * server follows `dist` to whichever version is current and a rebuild needs no reload.
 */
export function configDir(dir: string): string {
  const absolute = path.resolve(dir);
  // Neither nginx nor Caddy can escape every character inside a path string.
  if (/[\s"'\\$;{}#`]/.test(absolute)) {
    throw new UserError(
      `--dir: ${JSON.stringify(absolute)} contains a space, quote or one of \\ $ ; { } # \`, which a server configuration cannot hold: move the output`,
    );
  }
  return absolute;
}
