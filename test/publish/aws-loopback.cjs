// Preloaded (node --require) into a publisher under test: its HTTPS requests to AWS's own hosts
// (*.amazonaws.com, as the SDK's endpoint rules name them when no --endpoint is given) go, as
// plain HTTP, to the strict front at CATALOGUE_TEST_AWS_AT on loopback instead, with their Host
// (and so their signature) unchanged. Nothing else is touched, and nothing leaves the machine.
const http = require("node:http");
const https = require("node:https");

const at = new URL(process.env.CATALOGUE_TEST_AWS_AT);
const original = https.request;
https.request = function request(options, ...rest) {
  const host =
    typeof options === "object" && options !== null && !(options instanceof URL)
      ? (options.hostname ?? options.host ?? "")
      : "";
  if (!/\.amazonaws\.com$/.test(host)) return original.call(this, options, ...rest);
  const { agent: _tls, protocol: _https, port: _port, ...plain } = options;
  const headers = { host, ...plain.headers };
  return http.request(
    {
      ...plain,
      headers,
      host: at.hostname,
      hostname: at.hostname,
      port: Number(at.port),
      protocol: "http:",
    },
    ...rest,
  );
};
