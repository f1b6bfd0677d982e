// Kubernetes' CEL URL functions: url, isURL and the parts of a URL.
import { describe, expect, it } from 'vitest';
import { I, listOf, objectOf, outcome } from './cel-harness.ts';

const SCHEMA = objectOf({ xs: listOf(I) });
const VALUE = { xs: [3, 1, 2] };

describe('the URL library', () => {
  it.each([
    "isURL('https://example.com:8080/a/b?x=1&x=2')",
    "!isURL('example.com')",
    "isURL('/absolute/path')",
    "url('https://example.com:8080/a/b').getScheme() == 'https'",
    "url('https://example.com:8080/a/b').getHost() == 'example.com:8080'",
    "url('https://example.com:8080/a/b').getHostname() == 'example.com'",
    "url('https://[::1]:80/').getHostname() == '::1'",
    "url('https://example.com:8080/a/b').getPort() == '8080'",
    "url('https://example.com/a%20b').getEscapedPath() == '/a%20b'",
    "url('https://example.com/?x=1&x=2&y=3').getQuery() == {'x': ['1', '2'], 'y': ['3']}",
    "url('/p?q=1').getScheme() == '' && url('/p?q=1').getEscapedPath() == '/p'",
    "url('https://[::1]:80/').getHost() == '[::1]:80'",
    "url('https://[::1]/').getHost() == '[::1]'",
    "url('/path').getHost() == '' && url('/path').getHostname() == '' && url('/path').getPort() == ''",
    "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
    "url('https://example.com/').getPort() == ''",
    "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
    "url('https://example.com').getEscapedPath() == ''",
    "url('https://example.com/path?key with spaces=value with spaces').getQuery() == {'key with spaces': ['value with spaces']}",
    "url('https://example.com/path?').getQuery() == {}",
    "url('https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor').getHost() == 'kubernetes.io:80'",
    "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
    "isURL('https://a:b:c/') == false",
    "isURL('../relative-path') == false",
  ])('%s holds', (rule) => {
    expect(outcome(SCHEMA, VALUE, rule)).toEqual([]);
  });

  it.each([["url('nope').getScheme() == ''", 'URL parse error during conversion from string']])(
    '%s fails with "%s"',
    (rule, text) => {
      const out = outcome(SCHEMA, VALUE, rule);
      expect(out).toHaveLength(1);
      expect(out[0]).toContain(text);
    },
  );
});
