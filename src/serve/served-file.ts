/** A file the server may send: inside the build, a regular file. */
export interface ServedFile {
  /** Path relative to the build root. */
  rel: string;
  /** The real path on disk. */
  real: string;
  size: number;
  /** Strong validator: the MD5 of `_catalogue/files.tsv` (what S3 reports too), else size and mtime. */
  etag: string;
}
