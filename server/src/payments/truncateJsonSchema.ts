/** The schema without its `$schema` dialect line. */
export function withoutMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/**
 * Keeps `depth` levels of object properties; deeper objects and arrays keep only their type.
 * Every 402 carries its extensions' schemas in a header (and the client echoes them back in the
 * payment header), so they state the shape, not every nested rule.
 * @example truncateJsonSchema(z.toJSONSchema(ReportSchema), 2)
 */
export function truncateJsonSchema(
  schema: Record<string, unknown>,
  depth: number,
): Record<string, unknown> {
  if (depth === 0) {
    const { type, enum: values } = schema;
    return values === undefined ? { type } : { type, enum: values };
  }
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties === undefined) return truncateJsonSchema(schema, 0);
  return {
    type: "object",
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, value]) => [
        name,
        truncateJsonSchema(value, depth - 1),
      ]),
    ),
    ...(schema.required ? { required: schema.required } : {}),
  };
}
