import type { FastifyPluginAsync, FastifySchemaCompiler, FastifyTypeProvider, RawServerDefault } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../domain/errors';
import { zodIssue } from '../domain/validation';

/**
 * Route input checked by Fastify with the route's zod schemas: the params, query and body schemas of a route
 * (built by `operation`) validate the request before the handler runs, type the handler's `request`, and
 * describe the route in the OpenAPI document. A refusal is a DomainError, so the one error handler answers it
 * with our codes, messages and field names.
 */

/** Handlers see what the route's schemas parse a request into. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** A group of routes whose handlers are typed by their zod schemas. */
export type RoutesPlugin = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodTypeProvider>;

/** What a parsing schema shows in the document: the schema a client sends against. */
const documentedAs = new WeakMap<z.ZodType, z.ZodType>();
/** The parser of each parsing schema, which the validator calls directly (a zod pipe around it would only add cost). */
const parsers = new WeakMap<z.ZodType, (input: unknown) => unknown>();

/**
 * A request part checked by a domain parser (which has rules beyond its schema: every problem at once with
 * the domain's field names, cross-field rules, a path id's own field name) and documented by `documented`.
 * The parser throws a DomainError to refuse; its result is what the handler gets.
 */
export function parsedBy<D extends z.ZodType, T>(documented: D, parse: (input: z.input<D>) => T): z.ZodType<T> {
  const schema = z.unknown().transform((input) => parse(input as z.input<D>)) as unknown as z.ZodType<T>;
  documentedAs.set(schema, documentedAs.get(documented) ?? documented);
  parsers.set(schema, parse as (input: unknown) => unknown);
  return schema;
}

/** The schema the document shows for a request part. */
export function documentedSchema(schema: z.ZodType): z.ZodType {
  return documentedAs.get(schema) ?? schema;
}

/**
 * Fastify's validator for every route: the part's zod schema, its issues as our issues (dotted field paths);
 * a parser's own DomainError as it is. A part that Fastify gets as undefined (no body) arrives as null.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, url }) => {
  if (!(schema instanceof z.ZodType)) throw new Error(`the ${httpPart ?? 'input'} schema of ${url} must be a zod schema`);
  const parse = parsers.get(schema);
  return (data: unknown) => {
    try {
      if (parse) return { value: parse(data) };
      const result = schema.safeParse(data, { reportInput: true });
      if (result.success) return { value: result.data };
      return {
        error: new DomainError(
          'VALIDATION_FAILED',
          result.error.issues.map((issue) => zodIssue(issue)),
        ),
      };
    } catch (error) {
      if (error instanceof DomainError) return { error };
      throw error;
    }
  };
};
