import { DomainError } from '../../../src/domain/errors';
import { parseConsignmentListQuery } from '../../../src/domain/consignment-filter';

const issuesOf = (query: Record<string, unknown>) => {
  try {
    parseConsignmentListQuery(query);
  } catch (error) {
    return (error as DomainError).issues.map((i) => [i.field, i.code]);
  }
  throw new Error('expected a refusal');
};

describe('parseConsignmentListQuery', () => {
  it('defaults to the first page of ten, no filter', () => {
    expect(parseConsignmentListQuery({})).toEqual({ filter: {}, page: { page: 1, limit: 10 } });
  });

  it('reads statuses repeated or comma-separated, once each', () => {
    expect(parseConsignmentListQuery({ status: ['24', '2,3', '24'] }).filter.statuses).toEqual([24, 2, 3]);
  });

  it('turns days into UTC instants, a "to" day including the whole day, a "to" instant itself', () => {
    expect(parseConsignmentListQuery({ created_from: '2026-11-23', created_to: '2026-11-24' }).filter).toEqual({
      createdFrom: '2026-11-23T00:00:00.000Z',
      createdBefore: '2026-11-25T00:00:00.000Z',
    });
    expect(parseConsignmentListQuery({ created_from: '2026-11-24T09:30:00+03:00', created_to: '2026-11-24T10:00:00Z' }).filter).toEqual({
      createdFrom: '2026-11-24T06:30:00.000Z',
      createdBefore: '2026-11-24T10:00:00.001Z',
    });
  });

  it('refuses every bad parameter at once, each naming itself', () => {
    expect(
      issuesOf({
        status: 'x',
        provider_id: '1.5',
        limit: '101',
        page: '0',
        import_id: 'nope',
        created_from: '2026-13-01',
        created_to: '2026-02-30',
        extra: '1',
      }),
    ).toEqual(
      expect.arrayContaining([
        ['status', 'INVALID_TYPE'],
        ['provider_id', 'INVALID_TYPE'],
        ['limit', 'TOO_LARGE'],
        ['page', 'TOO_SMALL'],
        ['import_id', 'INVALID_CHOICE'],
        ['created_from', 'INVALID_TYPE'],
        ['created_to', 'INVALID_TYPE'],
        ['extra', 'UNKNOWN_FIELD'],
      ]),
    );
    expect(issuesOf({ status: '99' })).toEqual([['status', 'INVALID_CHOICE']]);
    expect(issuesOf({ created_from: '2026-11-24', created_to: '2026-11-23' })).toEqual([['created_to', 'DATE_RANGE_EMPTY']]);
  });
});
