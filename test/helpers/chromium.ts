import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium: the tests never download a browser. */
export const CHROMIUM = "/usr/bin/chromium";

/** Headless, no sandbox (root), and none of the background traffic this machine's closed network refuses. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}
