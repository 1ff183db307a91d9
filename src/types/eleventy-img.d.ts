// @11ty/eleventy-img ships no type declarations; this covers the part the build calls.
declare module "@11ty/eleventy-img" {
  interface ImageStat {
    format: string;
    width: number;
    height: number;
    url: string;
    filename: string;
    outputPath: string;
    size: number;
    srcset: string;
    sourceType: string;
    /** With `dryRun`: the processed bytes, not written anywhere. */
    buffer?: Buffer;
  }
  interface ImageOptions {
    widths?: (number | "auto" | null)[];
    formats?: string[];
    outputDir?: string;
    urlPath?: string;
    useCache?: boolean;
    dryRun?: boolean;
    svgShortCircuit?: boolean | "size";
    sharpJpegOptions?: Record<string, unknown>;
    sharpWebpOptions?: Record<string, unknown>;
    [key: string]: unknown;
  }
  function Image(
    src: string | Buffer,
    options?: ImageOptions,
  ): Promise<Record<string, ImageStat[]>>;
  export default Image;
}
