import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A route's response schema: classic zod or zod/mini (the signed-out contracts), both zod core types. */
type ZodType = z.core.$ZodType;
type RouteSchema = Parameters<FastifySerializerCompiler<ZodType>>[0];

/**
 * Serialises each route's answers with a function compiled once from its zod response schema's JSON Schema
 * (fast-json-stringify, what Fastify itself does for JSON Schema routes), instead of encoding every answer
 * with zod and then `JSON.stringify`: under load those two took a quarter of the API's CPU.
 *
 * What it trades away: in production an answer is no longer checked against its schema on the way out;
 * a property the schema does not name is still left out, but a wrong type is written as the schema says
 * rather than refused with a 500. So with `check` (the tests' apps) every answer is also serialised through
 * zod, which refuses a wrong shape as before, and the two texts must be identical; any test that reaches a
 * route checks its compiled serialiser too. A schema JSON Schema cannot express keeps the zod serialiser.
 */
export function compiledSerializerCompiler(options: { check: boolean }): FastifySerializerCompiler<ZodType> {
  return (route: RouteSchema) => {
    const viaZod = zodSerializerCompiler(route);
    let compiled: (data: unknown) => string;
    try {
      const schema = z.toJSONSchema(route.schema, {
        io: 'output',
        target: 'draft-7',
        unrepresentable: 'throw',
        // fast-json-stringify writes only the properties a schema names, as zod's encoding keeps only those;
        // but it picks a union's branch by validating the value, and `additionalProperties: false` would make
        // a stored source with a setting its kind no longer has match no branch at all (zod strips it).
        override: ({ jsonSchema }) => {
          if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
        },
      });
      compiled = fastJson(schema as object);
    } catch {
      return viaZod;
    }
    if (!options.check) return compiled;
    return (data) => {
      const expected = viaZod(data);
      const actual = compiled(data);
      if (actual !== expected) {
        throw new Error(
          `${route.method} ${route.url} (${route.httpStatus}): the compiled serialiser wrote ${actual}, zod ${expected}`,
        );
      }
      return actual;
    };
  };
}
