import type { Assets } from "./worker.ts";

/**
 * The published build in an R2 bucket (what `catalogue publish --to s3://BUCKET/PREFIX` writes:
 * each file of the build at `PREFIX/<path>`), given to the edge function as the `env.ASSETS`
 * it reads: `GET /<path>` answers that object, or 404. Only the part of the R2 binding's API
 * used here is declared, so the project needs no Workers type package.
 */

export interface R2ObjectBody {
  body: ReadableStream;
  size: number;
  /** The object's ETag, quoted: the MD5 of the bytes for a single-part upload (what publish makes). */
  httpEtag: string;
}

export interface R2Bucket {
  get(key: string): Promise<R2ObjectBody | null>;
}

export function r2Assets(bucket: R2Bucket, prefix = ""): Assets {
  const base = prefix.replace(/^\/+|\/+$/g, "");
  return {
    async fetch(request: Request) {
      const rel = decodeURIComponent(new URL(request.url).pathname.slice(1));
      const object = await bucket.get(base === "" ? rel : `${base}/${rel}`);
      if (object === null) return new Response(null, { status: 404 });
      return new Response(object.body, {
        headers: { "Content-Length": String(object.size), ETag: object.httpEtag },
      });
    },
  };
}
