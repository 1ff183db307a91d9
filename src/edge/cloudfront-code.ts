/**
 * The code of the CloudFront Function (runtime cloudfront-js-2.0) that `catalogue config
 * cloudfront` writes, apart from its data (cloudfront.ts fills `D` from the routing table). It is
 * resolve.ts again in the runtime's JavaScript: no modules but the runtime's own `cloudfront`
 * (for the KeyValueStore), no Node, no fetch, a few KB. Kept as text because the function is
 * deployed as one source file; the CloudFront tests run it in a `node:vm` context. The bucket's
 * file paths of the API are written into the text from api/layout.ts when it is made, so the
 * function stays self-contained.
 *
 * Viewer request: the `Host` picks the host's entry (unknown → the first domain); what the URL
 * decides is answered here (OPTIONS, 405, 400, hidden paths, the API's 301s and 404s, a page past
 * the last one when the KeyValueStore holds the domain's page count); everything else becomes
 * the URI of the file in the bucket (`/<host>/<path>`, `index.html` for a path ending in `/`,
 * query string cleared). The bucket has no folders to ask about, so a folder asked without its
 * slash is not redirected (the site's links all end in one).
 */
import { detailFile, listFile } from "../serve/routes.ts";

/** A file of the output's layout as an expression of the function's JavaScript: see `part`. */
const fileExpression = (file: string) => `"${file}"`;
/** A variable of the function's code in the middle of a fileExpression. */
const part = (variable: string) => `" + ${variable} + "`;

export const FUNCTION_CODE = String.raw`
var kvs = null;
try { kvs = cf.kvs(); } catch (e) { kvs = null; }

function headers(extra) {
  var out = {}, k;
  for (k in D.own) out[k] = { value: D.own[k] };
  for (k in extra) out[k.toLowerCase()] = { value: extra[k] };
  return out;
}

function answer(status, extra, body) {
  var r = { statusCode: status, headers: headers(extra) };
  if (body) r.body = { encoding: "text", data: body };
  return r;
}

function text(status, body) {
  return answer(status, { "Content-Type": "text/plain; charset=utf-8" }, body);
}

function normalize(raw) {
  var decoded;
  try { decoded = decodeURIComponent(raw); } catch (e) { return null; }
  if (decoded.charAt(0) !== "/" || decoded.indexOf("\0") >= 0) return null;
  var parts = decoded.split("/"), segments = [];
  for (var i = 0; i < parts.length; i++) {
    var part = parts[i];
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (segments.length === 0) return null;
      segments.pop();
    } else segments.push(part);
  }
  var last = parts[parts.length - 1];
  var trailing = segments.length > 0 && (last === "" || last === "." || last === "..");
  return "/" + segments.join("/") + (trailing ? "/" : "");
}

function encodePath(path) {
  return path.split("/").map(encodeURIComponent).join("/");
}

function escapeRegex(s) {
  return s.replace(/[.*+?^${"$"}{}()|[\]\\\/-]/g, "\\$&");
}

// The query as sent, as far as the event keeps it: parameters grouped by name, a bare name as "name=".
function queryOf(qs) {
  var out = [];
  for (var k in qs) {
    var all = qs[k].multiValue || [qs[k]];
    for (var i = 0; i < all.length; i++) out.push(k + "=" + all[i].value);
  }
  return out.join("&");
}

function classify(rule, qs) {
  var entry = qs[rule.name];
  if (entry === undefined) return { folder: rule.absent };
  var value = entry.value;
  if (Object.prototype.hasOwnProperty.call(rule.values, value)) return { folder: rule.values[value] };
  if (rule.pattern && new RegExp(rule.pattern).test(value)) return { folder: value };
  return rule.otherwise;
}

function apiError(name) {
  return answer(404, D.api, D.errors[name]);
}

async function pageCount(host) {
  if (kvs === null) return null;
  try { return Number(await kvs.get(host)); } catch (e) { return null; }
}

function toBucket(request, host, file) {
  request.uri = encodePath("/" + host + file);
  request.querystring = {};
  return request;
}

async function handler(event) {
  var request = event.request, method = request.method;
  var hostHeader = request.headers.host ? request.headers.host.value : "";
  var name = hostHeader.replace(/:\d*$/, "").replace(/\.$/, "").toLowerCase();
  var host = Object.prototype.hasOwnProperty.call(D.hosts, name) ? name : D.first;
  var entry = D.hosts[host];
  var path = normalize(request.uri);
  if (path === null) return text(400, "Bad request\n");
  if (method === "OPTIONS") return answer(200, D.options, "");
  if (method !== "GET" && method !== "HEAD") return answer(405, D.refused, '{"detail":"Method \\"' + method + '\\" not allowed."}');
  for (var h = 0; h < D.hidden.length; h++) {
    if (path.indexOf(D.hidden[h]) === 0 || path + "/" === D.hidden[h]) return text(404, "Not found\n");
  }
  if (entry.b !== null) {
    var api = entry.b + D.apiPath;
    var query = queryOf(request.querystring);
    if (path.indexOf(api.slice(0, -1)) === 0) {
      var slashless = [api.slice(0, -1)].concat(D.exports.map(function (e) { return api + e[0]; }));
      if (slashless.indexOf(path) >= 0 || new RegExp("^" + escapeRegex(api) + "(" + D.id + ")$").test(path)) {
        var location = { Location: encodePath(path) + "/" + (query ? "?" + query : "") };
        for (var k in D.api) if (k !== "Content-Type") location[k] = D.api[k];
        return answer(301, location, "");
      }
      if (path === api) {
        var folders = {};
        for (var r = 0; r < D.rules.length; r++) {
          var outcome = classify(D.rules[r], request.querystring);
          if (outcome.error) return apiError(outcome.error);
          folders[D.rules[r].name] = outcome.folder;
        }
        if (/^[0-9]+$/.test(folders.page)) {
          var total = await pageCount(host);
          if (total !== null && !isNaN(total) && Number(folders.page) > total) return apiError("invalid-page");
        }
        return toBucket(request, host, ${fileExpression(listFile(part("folders.format"), part("folders.ordering"), part("folders.page")))});
      }
      var detail = new RegExp("^" + escapeRegex(api) + "(" + D.id + ")/$").exec(path);
      if (detail !== null) return toBucket(request, host, ${fileExpression(detailFile(part("detail[1]")))});
      for (var x = 0; x < D.exports.length; x++) {
        if (path === api + D.exports[x][0] + "/") return toBucket(request, host, D.exports[x][1]);
      }
      if (path.indexOf(api) === 0) return apiError("not-found");
    }
  }
  var media = entry.m.some(function (prefix) { return path.indexOf(prefix) === 0; });
  if (entry.b === null && !media) return text(404, "Not found\n");
  return toBucket(request, host, path.charAt(path.length - 1) === "/" ? path + "index.html" : path);
}
`;
