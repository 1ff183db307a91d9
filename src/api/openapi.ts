import {
  AUDIOVISUAL_TYPES,
  LANGUAGES,
  ORDERINGS,
  SLUG_PATTERN,
  type Domain,
} from "../content/schema.ts";
import {
  API_PATH,
  ERROR_BODIES,
  EXPORT_KINDS,
  MARC_FORMAT_NAMES,
  MARC_FORMATS,
  type MarcFormat,
  OPENAPI_FILE,
  PAGE_SIZE,
  urlPath,
} from "./layout.ts";

/**
 * The OpenAPI 3.1 description of one domain's static API, written by the build at
 * `<domain><base path>/api/v1/openapi.json`. It describes what the servers of src/serve/ answer
 * (docs/interface.md#json and #routing); the conformance suite validates real responses against it.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string) => ({ type: [type, "null"] });
const json = (schema: object) => ({ "application/json": { schema } });
const errorResponse = (description: string, example: object) => ({
  description,
  content: { "application/json": { schema: ref("Error"), example } },
});

const directorSchema = {
  type: "object",
  additionalProperties: false,
  required: [
    "id",
    "name",
    "description",
    ...LANGUAGES.map((l) => `description_${l}`),
    "slug",
    "photo",
    "show_img",
  ],
  properties: {
    id: { type: "integer", minimum: 1 },
    name: { type: "string" },
    description: {
      ...nullable("string"),
      description: "Biography in the domain's language (or the CSV's own default text).",
    },
    ...Object.fromEntries(LANGUAGES.map((l) => [`description_${l}`, nullable("string")])),
    slug: { type: "string", pattern: SLUG_PATTERN.source },
    photo: { ...nullable("string"), format: "uri", description: "Under the domain's media_url." },
    show_img: { type: "boolean" },
  },
};

const elementProperties = {
  id: { type: "integer", minimum: 1 },
  name: { type: "string" },
  cover: { type: "string", format: "uri", description: "Under the domain's media_url." },
  director: { anyOf: [ref("Director"), { type: "null" }] },
  audiovisual_type: { type: ["string", "null"], enum: [...AUDIOVISUAL_TYPES, null] },
  is_new: { type: "boolean", description: "Listed for fewer than the domain's new_days days." },
  progress_loan_user: { type: "null" },
  streaming: { type: "object", maxProperties: 0 },
  slug: { type: "string", pattern: SLUG_PATTERN.source },
  status_global: { type: "integer" },
};

const elementSchema = {
  type: "object",
  additionalProperties: false,
  required: Object.keys(elementProperties),
  properties: elementProperties,
};

const detailProperties = {
  ...elementProperties,
  year: { ...nullable("integer"), minimum: 1870, maximum: 2100 },
  duration: { ...nullable("integer"), minimum: 1, description: "Minutes." },
  created: { type: "string", format: "date", description: "available_from in this domain." },
  expire: {
    ...nullable("string"),
    format: "date",
    description: "available_until in this domain (last day), or null.",
  },
};

const envelopeSchema = {
  type: "object",
  additionalProperties: false,
  required: ["links", "trans_title", "count", "total_pages", "results"],
  properties: {
    links: {
      type: "object",
      additionalProperties: false,
      required: ["next", "previous"],
      properties: {
        next: { ...nullable("string"), format: "uri" },
        previous: { ...nullable("string"), format: "uri" },
      },
    },
    trans_title: { type: "null" },
    count: { type: "integer", minimum: 0 },
    total_pages: { type: "integer", minimum: 1, description: `max(1, ceil(count / ${PAGE_SIZE}))` },
    results: { type: "array", maxItems: PAGE_SIZE, items: ref("Audiovisual") },
  },
};

const exportOperation = (kind: string, summary: string) => ({
  get: {
    operationId: kind,
    summary,
    responses: {
      "200": {
        description: "The spreadsheet: first sheet, a header row, one row per work in name order.",
        headers: {
          "Content-Disposition": {
            schema: { type: "string" },
            description: 'attachment; filename="….xlsx"',
          },
        },
        content: {
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {
            schema: {
              type: "string",
              contentMediaType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            },
          },
        },
      },
    },
  },
});

/** The MARC 21 records of an export set (docs/exports.md#marc-21-records), in one format. */
const marcOperation = (kind: string, format: MarcFormat, summary: string) => {
  const { extension, type } = MARC_FORMATS[format];
  return {
    get: {
      operationId: `${kind}_${format}`,
      summary: `${summary} As MARC 21 bibliographic records, ${format === "marc" ? "ISO 2709 (UTF-8)" : "MARCXML (the MARC 21 slim schema)"}.`,
      responses: {
        "200": {
          description:
            kind === "export_down_movies"
              ? "One deleted record (Leader/05 d) per work, in name order, carrying the 001 of the record it deletes."
              : "One record per work, in name order; 001 is the work's control number in every build and domain.",
          headers: {
            "Content-Disposition": {
              schema: { type: "string" },
              description: `attachment; filename="….${extension}"`,
            },
          },
          content: { [type]: { schema: { type: "string", contentMediaType: type } } },
        },
      },
    },
  };
};

const EXPORT_SUMMARIES: Record<(typeof EXPORT_KINDS)[number], string> = {
  export_excel: "Every listed work of the domain.",
  export_up_movies: "Works whose availability starts within the export window (ups).",
  export_down_movies: "Works whose availability ended within the export window (downs).",
};

function openapiDocument(domain: Domain): object {
  const api = API_PATH;
  return {
    openapi: "3.1.0",
    info: {
      title: `${domain.name}: audiovisual catalogue`,
      version: "v1",
      description:
        "A read-only, pre-computed catalogue API. Query values are matched as sent (no percent-decoding); " +
        "when a parameter is repeated, its first occurrence counts; other parameters are ignored.",
    },
    servers: [{ url: domain.base_url }],
    paths: {
      [api]: {
        get: {
          operationId: "list",
          summary: "One page of the domain's listed works.",
          parameters: [
            {
              name: "format",
              in: "query",
              required: false,
              schema: { type: "string", enum: ["api", "json"] },
              description: "Any other value: 404 Not found.",
            },
            {
              name: "ordering",
              in: "query",
              required: false,
              schema: { type: "string", enum: [...ORDERINGS] },
              description: `Absent or any other value: the domain's default ordering (${domain.default_ordering}).`,
            },
            {
              name: "page",
              in: "query",
              required: false,
              schema: {
                anyOf: [
                  { type: "integer", minimum: 1, maximum: 999_999_999 },
                  { type: "string", const: "last" },
                ],
              },
              description:
                "1 when absent; `last` is the last page. Anything else, or a page past the last: 404 Invalid page.",
            },
          ],
          responses: {
            "200": { description: "The page.", content: json(ref("Page")) },
            "404": errorResponse("Invalid page, or unknown format.", ERROR_BODIES["invalid-page"]),
          },
        },
      },
      [`${api}{id}/`]: {
        get: {
          operationId: "retrieve",
          summary: "One listed work of the domain.",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } },
          ],
          responses: {
            "200": { description: "The work.", content: json(ref("AudiovisualDetail")) },
            "404": errorResponse("Not listed in this domain.", ERROR_BODIES["not-found"]),
          },
        },
      },
      ...Object.fromEntries(
        EXPORT_KINDS.flatMap((kind): [string, object][] => [
          [`${api}${kind}/`, exportOperation(kind, EXPORT_SUMMARIES[kind])],
          ...MARC_FORMAT_NAMES.map((format): [string, object] => [
            `${api}${kind}/${format}/`,
            marcOperation(kind, format, EXPORT_SUMMARIES[kind]),
          ]),
        ]),
      ),
    },
    components: {
      schemas: {
        Page: envelopeSchema,
        Audiovisual: elementSchema,
        AudiovisualDetail: {
          type: "object",
          additionalProperties: false,
          required: Object.keys(detailProperties),
          properties: detailProperties,
        },
        Director: directorSchema,
        Error: {
          type: "object",
          additionalProperties: false,
          required: ["detail"],
          properties: { detail: { type: "string" } },
        },
      },
    },
  };
}

/** `[path, bytes]` of the domain's description in the output (for `tree.write(...openapiFile(domain))`). */
export function openapiFile(domain: Domain): [string, string] {
  return [
    `${domain.domain}${urlPath(domain.base_url)}${OPENAPI_FILE}`,
    JSON.stringify(openapiDocument(domain), null, 2) + "\n",
  ];
}
