// Loaded into the s3rver process of the tests (node --require). s3rver stores each object as a
// file under folders made of its key, and a delete removes the folders it leaves empty. A put of
// another key in that folder at the same moment (a publisher writing its lease while another
// releases the last one) then opens its file in a folder just removed, and the stream's error,
// which s3rver does not handle, kills the server. S3 itself has no folders: keep them.
const FilesystemStore = require("s3rver/lib/stores/filesystem.js");
const fs = require("node:fs/promises");

FilesystemStore.prototype.deleteObject = async function deleteObject(bucket, key) {
  const files = ["object", "object.md5", "metadata.json"].map((kind) =>
    this.getResourcePath(bucket, key, kind),
  );
  await Promise.all(
    files.map((file) =>
      fs.unlink(file).catch((error) => {
        if (error.code !== "ENOENT") throw error;
      }),
    ),
  );
};
