import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { DomainError } from '../../../src/domain/errors';
import { documentedSchema, parsedBy, zodValidatorCompiler } from '../../../src/api/validation';

/** Fastify's validator of every route: zod issues become our issues, a parser's DomainError stays as it is. */
const validatorOf = (schema: unknown) =>
  zodValidatorCompiler({ schema: schema as never, method: 'POST', url: '/x', httpPart: 'body' }) as (data: unknown) => { value?: unknown; error?: unknown };

describe('zodValidatorCompiler', () => {
  it('refuses with every issue, each naming its dotted field', () => {
    const validate = validatorOf(z.object({ consignee: z.object({ city: z.string().max(3) }), packages: z.array(z.object({ weight: z.number() })) }));
    const { error } = validate({ consignee: { city: 'Berlin' }, packages: [{ weight: 'x' }] });
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_FAILED');
    expect((error as DomainError).issues).toEqual([
      { code: 'TOO_LONG', field: 'consignee.city', params: { max: 3 } },
      { code: 'INVALID_TYPE', field: 'packages.0.weight', params: { type: 'number' } },
    ]);
  });

  it("hands the handler the parser's result, and answers the parser's own refusal", () => {
    const documented = z.object({ id: z.string() });
    const schema = parsedBy(documented, (params) => {
      if (params.id === '0') throw new DomainError('CONSIGNMENT_NOT_FOUND');
      return { id: Number(params.id) };
    });
    expect(validatorOf(schema)({ id: '7' })).toEqual({ value: { id: 7 } });
    expect((validatorOf(schema)({ id: '0' }).error as DomainError).code).toBe('CONSIGNMENT_NOT_FOUND');
    expect(documentedSchema(schema)).toBe(documented);
  });

  it('refuses a route schema that is not zod (a JSON schema would go unchecked)', () => {
    expect(() => validatorOf({ type: 'object' })).toThrow('must be a zod schema');
  });
});
