// parseLogQuery: upstream's PodLogOptions query parameters and their validation, as a table.
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../../operators/errors.ts';
import { parseLogQuery } from '../../../../src/kubelet/server/log-query.ts';

const parse = (query: string) => parseLogQuery(new URLSearchParams(query));

describe('parseLogQuery', () => {
  it.each([
    ['', { follow: false, previous: false, timestamps: false }],
    ['follow=true', { follow: true, previous: false, timestamps: false }],
    ['previous=true&timestamps=true', { follow: false, previous: true, timestamps: true }],
    ['follow=false&previous=0', { follow: false, previous: false, timestamps: false }],
    ['tailLines=0', { follow: false, previous: false, timestamps: false, tailLines: 0 }],
    ['tailLines=10', { follow: false, previous: false, timestamps: false, tailLines: 10 }],
    ['sinceSeconds=300', { follow: false, previous: false, timestamps: false, sinceSeconds: 300 }],
    ['limitBytes=1', { follow: false, previous: false, timestamps: false, limitBytes: 1 }],
    [
      'sinceTime=2026-11-24T21:49:10Z',
      { follow: false, previous: false, timestamps: false, sinceTime: Date.UTC(2026, 10, 24, 21, 49, 10) },
    ],
    [
      'sinceTime=2026-11-24T22:49:10%2B01:00',
      { follow: false, previous: false, timestamps: false, sinceTime: Date.UTC(2026, 10, 24, 21, 49, 10) },
    ],
  ])('%j parses to %j', (query, expected) => {
    expect(parse(query)).toEqual(expected);
  });

  it.each([
    ['tailLines=-1', 'tailLines', 'must be greater than or equal to 0'],
    ['tailLines=ten', 'tailLines', 'invalid integer value "ten"'],
    ['limitBytes=0', 'limitBytes', 'must be greater than 0'],
    ['sinceSeconds=0', 'sinceSeconds', 'must be greater than 0'],
    ['sinceSeconds=-5', 'sinceSeconds', 'must be greater than 0'],
    ['sinceTime=yesterday', 'sinceTime', 'invalid RFC3339 time "yesterday"'],
    ['follow=maybe', 'follow', 'invalid boolean value "maybe"'],
    [
      'sinceSeconds=10&sinceTime=2026-11-24T21:49:10Z',
      undefined,
      'at most one of `sinceTime` or `sinceSeconds` may be specified',
    ],
  ])('%j is refused naming %s', (query, field, message) => {
    const result = parse(query);
    expect(result).toBeInstanceOf(InvalidInputError);
    const error = result as InvalidInputError;
    expect(error.input).toBe('PodLogOptions');
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
  });
});
