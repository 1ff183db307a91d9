// @11ty/eleventy ships no type declarations for its programmatic API; this covers what the
// site uses.
declare module "@11ty/eleventy" {
  /** The part of Eleventy's configuration API the catalogue uses. */
  export interface EleventyConfig {
    addGlobalData(name: string, data: unknown): void;
    addTemplate(virtualPath: string, content: unknown, data?: Record<string, unknown>): void;
    addTransform(
      name: string,
      fn: (
        this: { page: { outputPath: string | false } },
        content: string,
      ) => string | Promise<string>,
    ): void;
    setTemplateFormats(formats: string[]): void;
    setQuietMode(quiet: boolean): void;
    /** Internal: the benchmark group of configuration callbacks (transforms among them). */
    benchmarks?: { config?: { setIsVerbose(verbose: boolean): void } };
  }
  interface EleventyOptions {
    quietMode?: boolean;
    configPath?: string;
    config?: (eleventyConfig: EleventyConfig) => void;
  }
  export default class Eleventy {
    constructor(input: string, output: string, options?: EleventyOptions);
    toJSON(): Promise<
      { url: string; inputPath: string; outputPath: string | false; content: string }[]
    >;
  }
}
