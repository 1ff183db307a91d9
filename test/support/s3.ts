import { S3Client } from "@aws-sdk/client-s3";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { afterAll, beforeAll } from "vitest";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

/**
 * The S3 server of the tests. A real S3-compatible server (s3rver) on a free loopback port, in a child process. Two settings
 * make it behave: NODE_OPTIONS=--openssl-legacy-provider (listing past 1,000 keys uses MD4-era
 * crypto otherwise missing in Node 20) and, on the client side, checksums only when required.
 */
export interface S3rver {
  endpoint: string;
  /** What the CLI and the SDK need: s3rver's fixed key pair, no profile files, no instance metadata. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** A fix of s3rver's own for concurrent puts and deletes in one folder (see the file). */
const KEEP_FOLDERS = path.join(import.meta.dirname, "s3rver-keep-folders.cjs");
const BIN = path.join(
  path.dirname(createRequire(import.meta.url).resolve("s3rver/package.json")),
  "bin/s3rver.js",
);

export async function startS3rver(buckets: string[]): Promise<S3rver> {
  const dir = await mkdtemp(path.join(tmpdir(), "catalogue-s3rver-"));
  const args = [
    "--require",
    KEEP_FOLDERS,
    BIN,
    "-d",
    dir,
    "-a",
    "127.0.0.1",
    "-p",
    "0",
    "--silent",
    "--no-vhost-buckets",
  ];
  for (const bucket of buckets) args.push("--configure-bucket", bucket);
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, NODE_OPTIONS: "--openssl-legacy-provider" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${out}`)), 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on [^:]+:(\d+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`s3rver exited with ${code}: ${out}`)));
  });
  // A server that dies under a test leaves only ECONNREFUSED behind: say why it died.
  let stopping = false;
  child.on("exit", (code, signal) => {
    if (!stopping)
      console.error(`s3rver on port ${port} exited (${signal ?? code}): ${out.slice(-4000)}`);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: {
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      AWS_REGION: "us-east-1",
      AWS_EC2_METADATA_DISABLED: "true",
      AWS_CONFIG_FILE: path.join(dir, "no-config"),
      AWS_SHARED_CREDENTIALS_FILE: path.join(dir, "no-credentials"),
    },
    async stop() {
      stopping = true;
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill();
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A client of the test server: s3rver's fixed credentials, and checksums only when required
 * (otherwise streamed bodies are stored with their chunk framing). */
export function s3Client(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** The server of a test file, with a client of it: see useS3rver. */
export interface UsedS3rver {
  readonly endpoint: string;
  readonly env: NodeJS.ProcessEnv;
  readonly client: S3Client;
}

/**
 * An s3rver holding `buckets` for this file's (or this describe block's) tests: started in a
 * `beforeAll` and stopped, its client destroyed, in an `afterAll`, both registered here. Its
 * fields are read inside tests and later hooks; read before the start, they throw rather than
 * give `undefined`. Files that need two servers or a proxy in front call startS3rver themselves.
 */
export function useS3rver(buckets: string[]): UsedS3rver {
  let server: S3rver | undefined;
  let client: S3Client | undefined;
  const started = <T>(value: T | undefined, field: string): T => {
    if (value === undefined)
      throw new Error(`useS3rver's ${field} was read before its beforeAll started the server`);
    return value;
  };
  beforeAll(async () => {
    server = await startS3rver(buckets);
    client = s3Client(server.endpoint);
  });
  afterAll(async () => {
    client?.destroy();
    await server?.stop();
  });
  return {
    get endpoint() {
      return started(server, "endpoint").endpoint;
    },
    get env() {
      return started(server, "env").env;
    },
    get client() {
      return started(client, "client");
    },
  };
}
