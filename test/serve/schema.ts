/**
 * A JSON Schema checker for the subset the OpenAPI description uses (type, enum, const,
 * properties, required, additionalProperties: false, items, maxItems, maxProperties, minimum,
 * maximum, pattern, anyOf, $ref into the document). Returns every violation with its path.
 */
type Schema = Record<string, unknown>;

export function violations(value: unknown, schema: Schema, root: Schema, at = "$"): string[] {
  if (typeof schema.$ref === "string") {
    const target = schema.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((node, key) => (node as Schema)[key], root);
    return violations(value, target as Schema, root, at);
  }
  const out: string[] = [];
  if (schema.anyOf !== undefined) {
    const options = schema.anyOf as Schema[];
    if (options.every((option) => violations(value, option, root, at).length > 0))
      out.push(`${at}: matches no anyOf option`);
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((t) => typeOf(value, t)))
      return [...out, `${at}: expected ${types.join("|")}, got ${JSON.stringify(value)}`];
  }
  if (schema.enum !== undefined && !(schema.enum as unknown[]).includes(value))
    out.push(`${at}: ${JSON.stringify(value)} not in enum`);
  if ("const" in schema && schema.const !== value)
    out.push(`${at}: expected ${JSON.stringify(schema.const)}`);
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum)
      out.push(`${at}: below ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum)
      out.push(`${at}: above ${schema.maximum}`);
  }
  if (
    typeof value === "string" &&
    typeof schema.pattern === "string" &&
    !new RegExp(schema.pattern).test(value)
  ) {
    out.push(`${at}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems)
      out.push(`${at}: more than ${schema.maxItems} items`);
    if (schema.items !== undefined)
      value.forEach((item, i) =>
        out.push(...violations(item, schema.items as Schema, root, `${at}[${i}]`)),
      );
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[])
      if (!(key in object)) out.push(`${at}: missing ${key}`);
    if (
      typeof schema.maxProperties === "number" &&
      Object.keys(object).length > schema.maxProperties
    )
      out.push(`${at}: too many properties`);
    for (const [key, item] of Object.entries(object)) {
      if (key in properties) out.push(...violations(item, properties[key]!, root, `${at}.${key}`));
      else if (schema.additionalProperties === false) out.push(`${at}: unexpected property ${key}`);
    }
  }
  return out;
}

function typeOf(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}
