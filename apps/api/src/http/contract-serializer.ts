// A cheaper response serializer for the hottest read (the dashboard's services overview). The
// default (fastify-type-provider-zod) checks every answer with zod and then writes it with
// JSON.stringify; profiled under load on PostgreSQL, the overview of 20 services spent about a
// quarter of its CPU there (~75 µs in zod's parse, ~60 µs in JSON.stringify, of ~500 µs).
//
// This one writes with fast-json-stringify (Fastify's own serializer) compiled from the contract's
// JSON Schema (zod's toJSONSchema of the route's response schema): it writes the contract's keys
// and nothing else, so a field the contract does not name can never leave the server, as with the
// zod check. What it does not do is refuse a value of the wrong shape at run time; the presenter's
// types (the contract's output types) hold that at compile time, and the route's tests read its
// answers back through the contract's zod schema (services.overview.test.ts). Keys come in the
// contract's order with the optional ones last; the values are what zod's answer held.
import fastJsonStringify from 'fast-json-stringify';
import { z } from 'zod';

/** A route's `serializerCompiler` for a contract response schema of plain data (no codecs). */
export function compiledContractSerializer({
  schema,
  method,
  url,
}: {
  schema: unknown;
  method: string;
  url: string;
}): (data: unknown) => string {
  if (!(schema instanceof z.ZodType)) throw new Error(`${method} ${url}: the serializer needs a zod schema`);
  // `unrepresentable: 'throw'`: a schema JSON cannot describe (a transform, a date) fails at start-up.
  const jsonSchema = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' });
  return fastJsonStringify(jsonSchema as Parameters<typeof fastJsonStringify>[0]);
}

/** Whether nothing in `value` can change any more: it and every object in it frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(deeplyFrozen);
}

/**
 * compiledContractSerializer for a route whose answers are kept and served again (the services
 * overview, services/overview-answers.ts): an answer frozen all through is written once, and its
 * bytes kept with it for as long as it lives; any other answer is written each time. The bytes
 * are a Buffer, which spares Fastify measuring a string's UTF-8 length and the socket encoding it
 * on every request: Fastify sends a serializer's Buffer as it is (reply.js onSendEnd takes a
 * string or a Buffer), though its type names a string only.
 */
export function keptAnswerSerializer(route: {
  schema: unknown;
  method: string;
  url: string;
}): (data: unknown) => string {
  const write = compiledContractSerializer(route);
  const written = new WeakMap<object, Buffer>();
  const serialize = (data: unknown): string | Buffer => {
    if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) return write(data);
    let bytes = written.get(data);
    if (bytes === undefined) {
      if (!deeplyFrozen(data)) return write(data);
      bytes = Buffer.from(write(data));
      written.set(data, bytes);
    }
    return bytes;
  };
  return serialize as (data: unknown) => string;
}
