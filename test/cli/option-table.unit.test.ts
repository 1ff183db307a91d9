import { parseArgs } from "node:util";
import { describe, expect, expectTypeOf, it } from "vitest";
import { helpOf, usageOf } from "../../src/cli/command.ts";
import { commands } from "../../src/cli/command-list.ts";
import {
  flagText,
  helpLines,
  OPTIONS,
  optionLines,
  parseConfig,
  pick,
  usageLine,
  type Options,
  type Values,
} from "../../src/cli/option-table.ts";

const options = {
  out: {
    type: "string",
    valueHint: "DIR",
    default: "dist",
    description: "the output folder",
    help: "the output folder (default: dist); replaced atomically",
  },
  domain: {
    type: "string",
    valueHint: "HOST",
    multiple: true,
    description: "only this domain",
    help: "build only this domain (repeatable)",
  },
  to: {
    type: "string",
    valueHint: "TARGET",
    required: true,
    description: "where to",
    help: "where to publish",
  },
  strict: { type: "boolean", default: false, description: "strict", help: "be strict" },
} as const satisfies Options;

describe("the options' declaration", () => {
  it("is parseArgs' configuration: types, defaults and repetition", () => {
    expect(parseConfig(options)).toEqual({
      out: { type: "string", default: "dist" },
      domain: { type: "string", multiple: true },
      to: { type: "string" },
      strict: { type: "boolean", default: false },
    });
    const { values } = parseArgs({
      args: ["--domain", "a.example", "--domain", "b.example", "--strict"],
      options: parseConfig(options),
      strict: true,
    });
    expect(values).toEqual({
      out: "dist",
      domain: ["a.example", "b.example"],
      strict: true,
    });
  });

  it("types the values from the declaration: a string with a default is a string", () => {
    expectTypeOf<Values<typeof options>>().toEqualTypeOf<{
      out: string;
      domain: string[] | undefined;
      to: string | undefined;
      strict: boolean;
    }>();
    expectTypeOf<Values<ReturnType<typeof pick<"date" | "no-site">>>>().toEqualTypeOf<{
      date: string | undefined;
      "no-site": boolean;
    }>();
  });

  it("writes the usage line: hints, brackets for what is optional, ... for what repeats", () => {
    expect(usageLine("deploy", options)).toBe(
      "catalogue deploy [--out DIR] [--domain HOST]... --to TARGET [--strict]",
    );
    expect(
      usageLine("config", options, {
        words: "netlify",
        options: ["domain", "out"],
        required: ["out"],
      }),
    ).toBe("catalogue config netlify [--domain HOST]... --out DIR");
    expect(() => usageLine("x", options, { options: ["nothing"] })).toThrow("--nothing");
  });

  it("writes the help lines: the flag and its hint, then the help text wrapped in its column", () => {
    expect(optionLines(options)).toBe(
      [
        "  --out DIR            the output folder (default: dist); replaced atomically",
        "  --domain HOST        build only this domain (repeatable)",
        "  --to TARGET          where to publish",
        "  --strict             be strict",
      ].join("\n"),
    );
    expect(helpLines([["--r2 BUCKET[/PREFIX]", "one two three four five"]], 36)).toBe(
      ["  --r2 BUCKET[/PREFIX] one two three", "                       four five"].join("\n"),
    );
    expect(flagText("no-site", OPTIONS["no-site"])).toBe("--no-site");
  });
});

describe("every command's help and usage", () => {
  it.each(commands.map((c) => [c.name, c] as const))(
    "`catalogue %s --help` is made from its declared options, no line wider than 100",
    async (name, entry) => {
      const command = await entry.load();
      const help = helpOf(name, entry.summary, command);
      expect(
        help.startsWith(`Usage: ${usageOf(name, command)}\n\n${entry.summary}\n\nOptions:\n`),
      ).toBe(true);
      for (const [flag, spec] of Object.entries(command.options)) {
        const first = spec.help.split(" ").slice(0, 3).join(" ");
        expect(help, `--${flag}`).toContain(`  ${flagText(flag, spec).padEnd(20)} ${first}`);
        expect(usageOf(name, command), `--${flag}`).toContain(flagText(flag, spec));
      }
      const lines = help.split("\n").filter((l) => !/^(Usage: | {7}catalogue )/.test(l));
      for (const line of lines.filter((l) => l !== entry.summary))
        expect(line.length, line).toBeLessThanOrEqual(100);
    },
  );

  it("says what was missing before: config's --snippets has its own help line", async () => {
    const config = commands.find((c) => c.name === "config")!;
    const help = helpOf("config", config.summary, await config.load());
    expect(help).toContain("  --snippets FOLDER    write http.conf");
    expect(help).toMatch(/ {2}--domain HOST +netlify: [^\n]*nginx --snippets/);
  });
});
