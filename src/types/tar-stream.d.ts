// tar-stream ships no type declarations; this covers the part the archive writer calls.
declare module "tar-stream" {
  import type { Readable } from "node:stream";
  interface Headers {
    name: string;
    size: number;
    mode: number;
    mtime: Date;
    type: "file";
  }
  interface Pack extends Readable {
    entry(header: Headers, buffer: Uint8Array, callback: (error?: Error | null) => void): unknown;
    finalize(): void;
  }
  export function pack(): Pack;
}
