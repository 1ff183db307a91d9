import { describe, expect, it } from "vitest";
import type { BuildInfo } from "../../src/output/build-info.ts";
import { scopedDeletes } from "../../src/publish/records/scope.ts";

/** Only what scopedDeletes reads of a build description: each domain's name and media folder. */
const described = (...domains: [string, string][]) =>
  ({
    domains: domains.map(([domain, media_folder]) => ({ domain, media_folder })),
  }) as unknown as BuildInfo;

describe("what a publish of some domains may delete", () => {
  // Shard a builds uno (media in the shared folder "red") and cuatro (media of its own).
  const shard = described(
    ["uno.example", "media.example/red"],
    ["cuatro.example", "img.example/cuatro"],
  );
  const mayDelete = (stored: BuildInfo | null) =>
    scopedDeletes(shard, ["uno.example", "cuatro.example"], stored);

  it("keeps every medium while the target has no build.json: other shards may be uploading into a shared folder", () => {
    const deletable = mayDelete(null);
    expect(deletable("media.example/red/ab12.webp")).toBe(false);
    expect(deletable("img.example/cuatro/cd34.webp")).toBe(false);
    expect(deletable("uno.example/api/v1/audiovisuals/1.json")).toBe(true); // its own folders
    expect(deletable("dos.example/api/v1/audiovisuals/1.json")).toBe(false);
    expect(deletable("_catalogue/build.json")).toBe(false);
  });

  it("deletes media only in folders no other recorded domain uses", () => {
    const stored = described(
      ["uno.example", "media.example/red"],
      ["dos.example", "media.example/red"],
      ["cuatro.example", "img.example/cuatro"],
    );
    const deletable = mayDelete(stored);
    expect(deletable("media.example/red/ab12.webp")).toBe(false);
    expect(deletable("img.example/cuatro/cd34.webp")).toBe(true);
  });
});
