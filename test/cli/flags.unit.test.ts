import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkFlags } from "../../src/cli/flags.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-flags-"));
  // The minimal catalogue: uno.example and dos.example.
  content = await writeContent(path.join(dir, "content"), {});
});
afterAll(() => cleanup());

describe("flags checked before the content", () => {
  it("accepts what names something that is there", async () => {
    await mkdir(path.join(dir, "site"), { recursive: true });
    await expect(
      checkFlags({
        content,
        date: "2026-11-20",
        site: path.join(dir, "site"),
        domain: ["dos.example", "uno.example"],
      }),
    ).resolves.toBeUndefined();
    // --site is not read without the site.
    await expect(
      checkFlags({ content, site: "nowhere", "no-site": true }),
    ).resolves.toBeUndefined();
  });

  it("refuses a date that is none, a --site that is no folder, a --domain domains.csv does not list", async () => {
    await expect(checkFlags({ content, date: "2026-02-30" })).rejects.toThrow(
      '--date: expected a date YYYY-MM-DD, got "2026-02-30"',
    );
    await expect(checkFlags({ content, site: path.join(dir, "nowhere") })).rejects.toThrow(
      /^--site: .*nowhere is not a folder/,
    );
    await expect(
      checkFlags({ content, domain: ["uno.example", "nosuch.example"] }),
    ).rejects.toThrow(
      "--domain: unknown domain nosuch.example; the domains are: uno.example, dos.example",
    );
  });

  it("leaves --domain to the build when domains.csv cannot be read (the content check says why)", async () => {
    const broken = path.join(dir, "broken");
    await mkdir(broken, { recursive: true });
    await expect(checkFlags({ content: broken, domain: ["x.example"] })).resolves.toBeUndefined();
    await writeFile(path.join(broken, "domains.csv"), 'domain,name\n"uno.example,Uno\n');
    await expect(checkFlags({ content: broken, domain: ["x.example"] })).resolves.toBeUndefined();
    await rm(broken, { recursive: true });
    await expect(checkFlags({ content: broken, domain: ["x.example"] })).resolves.toBeUndefined();
  });
});
