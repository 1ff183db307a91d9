// The benchmark scripts (scripts/bench-*.ts) start the tests' S3 server from here.
export { s3Client, startS3rver, type S3rver } from "../support/s3.ts";
