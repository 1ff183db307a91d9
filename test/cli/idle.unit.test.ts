import { describe, expect, it } from "vitest";
import { whenIdle } from "../../src/cli/idle.ts";

/** Keeps this thread busy for `ms` (what a build does between its awaits). */
function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("whenIdle", () => {
  it("runs the task once, when the thread idles, not while it is busy", async () => {
    let runs = 0;
    const cancel = whenIdle(() => runs++, 20);
    // Busy in 60 ms stretches with short breaks between them: never an idle window.
    for (let i = 0; i < 5; i++) {
      busy(60);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(runs).toBe(0);
    await pause(100);
    expect(runs).toBe(1);
    await pause(100);
    expect(runs).toBe(1);
    cancel();
  });

  it("never runs the task once cancelled", async () => {
    let runs = 0;
    const cancel = whenIdle(() => runs++, 20);
    cancel();
    await pause(100);
    expect(runs).toBe(0);
  });
});
