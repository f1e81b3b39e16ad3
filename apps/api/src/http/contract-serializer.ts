// A compiled response serializer for the hottest reads (the dashboard's services overview), made
// from the same contract schema as the default one: zod's schema, turned into JSON Schema once,
// compiled by fast-json-stringify (what Fastify itself uses). The default serializer
// (fastify-type-provider-zod) copies the whole answer through zod's encoder and then stringifies
// it: on a 20-service overview that cost several times the stringifying. Here the keys, their
// order and the omitted optional ones come from the contract alike, and TypeScript types the
// handler's answer from it; the values' checks (enums, refinements) are the type checker's and the
// route's tests' (which parse each answer with the contract), no longer each request's.
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * `anyOf: [X, {type: 'null'}]` (zod's nullable) as X with `type: [X.type, 'null']`: the
 * serializer then writes the value directly instead of validating which branch it matches.
 * Keywords that only validate are dropped: the serializer never checks them.
 */
function simplify(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplify);
  if (typeof schema !== 'object' || schema === null) return schema;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' || key === 'minimum' || key === 'maximum' || key === 'pattern') continue;
    result[key] = key === 'properties' ? mapValues(value as JsonSchema) : simplify(value);
  }
  const branches = result.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const [first, second] = branches as JsonSchema[];
    const nullable = isNullType(second) ? first : isNullType(first) ? second : undefined;
    if (nullable && typeof nullable.type === 'string') {
      delete result.anyOf;
      return { ...result, ...nullable, type: [nullable.type, 'null'] };
    }
  }
  return result;
}

function mapValues(properties: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, simplify(value)]));
}

function isNullType(schema: JsonSchema | undefined): boolean {
  return schema !== undefined && schema.type === 'null' && Object.keys(schema).length === 1;
}

/** The JSON Schema the compiled serializer is built from (exported for its test). */
export function serializerSchemaOf(schema: z.ZodType): Schema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'output', target: 'draft-7' });
  return simplify(json) as Schema;
}

/** A route's `serializerCompiler` for contract (zod) response schemas. */
export function compiledContractSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  if (!(schema instanceof z.ZodType)) throw new Error('a compiled contract serializer needs a zod schema');
  return fastJsonStringify(serializerSchemaOf(schema));
}
