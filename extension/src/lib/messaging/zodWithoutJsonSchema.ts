import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";

// zod's JSON Schema output, for the scripts every page gets (the content script, the card): they
// only parse, and never turn a schema into JSON Schema, yet every zod schema type references its
// JSON Schema writer, which bundlers cannot drop (about 4 kB gzip). wxt.config.ts swaps this
// module in for zod's writer (json-schema-processors.js, to-json-schema.js) in those builds; the
// extension pages, the background and the server keep zod's own.

function unavailable(): never {
  throw new ConfigurationError("JSON Schema output is left out of this script", {
    code: "json_schema_unavailable",
  });
}

/** A schema's bounds, read by getters such as `minLength` (unused here). */
export const aggregateChecks = unavailable;
/** `schema.toJSONSchema()`: not available in these scripts. */
export const createToJSONSchemaMethod = () => unavailable;
/** Standard Schema's `jsonSchema.input/output`: created with every schema, never called here. */
export const createStandardJSONSchemaMethod = () => unavailable;
export const anyProcessor = unavailable;
export const arrayProcessor = unavailable;
export const bigintProcessor = unavailable;
export const booleanProcessor = unavailable;
export const catchProcessor = unavailable;
export const customProcessor = unavailable;
export const dateProcessor = unavailable;
export const defaultProcessor = unavailable;
export const enumProcessor = unavailable;
export const fileProcessor = unavailable;
export const functionProcessor = unavailable;
export const intersectionProcessor = unavailable;
export const lazyProcessor = unavailable;
export const literalProcessor = unavailable;
export const mapProcessor = unavailable;
export const nanProcessor = unavailable;
export const neverProcessor = unavailable;
export const nonoptionalProcessor = unavailable;
export const nullProcessor = unavailable;
export const nullableProcessor = unavailable;
export const numberProcessor = unavailable;
export const objectProcessor = unavailable;
export const optionalProcessor = unavailable;
export const pipeProcessor = unavailable;
export const prefaultProcessor = unavailable;
export const promiseProcessor = unavailable;
export const readonlyProcessor = unavailable;
export const recordProcessor = unavailable;
export const setProcessor = unavailable;
export const stringProcessor = unavailable;
export const successProcessor = unavailable;
export const symbolProcessor = unavailable;
export const templateLiteralProcessor = unavailable;
export const transformProcessor = unavailable;
export const tupleProcessor = unavailable;
export const undefinedProcessor = unavailable;
export const unionProcessor = unavailable;
export const unknownProcessor = unavailable;
export const voidProcessor = unavailable;
/** `z.toJSONSchema(schema)`: not available in these scripts. */
export const toJSONSchema = unavailable;
