// The Node.js versions the command runs on, as package.json's `engines` says them (a test holds
// the two equal): 20 from 20.19 and 22 from 22.12, the first releases that load ES modules with
// require() without a flag, and 24 and later. 21 and 23 were short-lived odd releases.
// CommonJS and dependency-free: bin/catalogue.js asks before it loads anything else.

const SUPPORTED = "20.19 or a later 20, 22.12 or a later 22, or 24 and later";

/** Whether Node `version` ("22.11.0", as process.versions.node gives it) is supported. */
function isSupported(version) {
  const [major, minor] = version.split(".").map(Number);
  if (major === 20) return minor >= 19;
  if (major === 22) return minor >= 12;
  return major >= 24;
}

/** The one line that refuses an unsupported Node, or null. */
function refusal(version) {
  if (isSupported(version)) return null;
  return `catalogue needs Node.js ${SUPPORTED}; this is Node.js ${version}`;
}

module.exports = { isSupported, refusal };
