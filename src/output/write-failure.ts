import { UserError } from "../errors.ts";

/** Failures of the file system that the operator fixes (not bugs), with what they mean. */
const WRITE_FAILURES: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EFBIG: "a file is larger than the system allows",
  ENOTDIR: "part of the path is a file, not a folder",
  EEXIST: "a file is in the way of a folder",
  EIO: "input/output error",
};

/**
 * A failure to write the output that the operator can fix becomes a UserError (exit 1) naming
 * the path and what to do; anything else (a bug) is returned as it is.
 */
export function writeFailure(error: unknown, where: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reason = code === undefined ? undefined : WRITE_FAILURES[code];
  if (reason === undefined || error instanceof UserError) return error;
  const file = (error as NodeJS.ErrnoException).path ?? where;
  return new UserError(
    `cannot write the output at ${file}: ${reason} (${code}); make the folder writable, free some space, or choose another --out`,
    {
      cause: error,
    },
  );
}
