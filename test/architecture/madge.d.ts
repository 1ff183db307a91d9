// The part of madge's API (8.x, which ships no types) that layers.test.ts uses.
declare module "madge" {
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string;
    detectiveOptions?: Record<string, Record<string, unknown>>;
  }
  interface MadgeResult {
    /** Each module (relative to baseDir) and the modules of ours it imports. */
    obj(): Record<string, string[]>;
    circular(): string[][];
    warnings(): { skipped: string[] };
  }
  export default function madge(
    path: string | string[],
    config?: MadgeConfig,
  ): Promise<MadgeResult>;
}
