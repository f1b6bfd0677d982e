// Kubernetes' CEL URL library: url(), isURL() and the parts of a URL value.
import { type Environment, EvaluationError } from '@marcbachmann/cel-js';

/** A parsed URL as a CEL value. */
export class Url {
  readonly url: URL;
  /** The escaped path as Go keeps it: empty when the text has none (WHATWG would say "/"). */
  readonly path: string;
  constructor(url: URL, path: string) {
    this.url = url;
    this.path = path;
  }
}

/** As Go's url.ParseRequestURI: an absolute URL, or an absolute path (with an optional query). */
function parse(text: string): Url | undefined {
  if (text.startsWith('/')) {
    const u = new URL(text, 'path:///');
    return new Url(u, u.pathname);
  }
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text)) return undefined;
  try {
    const u = new URL(text);
    const rest = /^[^:]*:\/\/[^/?#]*(.*)$/.exec(text)?.[1];
    return new Url(u, rest === undefined || rest.startsWith('/') ? u.pathname : '');
  } catch {
    return undefined;
  }
}

const isPathOnly = (u: Url) => u.url.protocol === 'path:';

/**
 * Registers the URL functions of k8s.io/apiserver/pkg/cel/library (urls.go): `url(s)`, `isURL(s)`,
 * and on a URL `getScheme()`, `getHost()`, `getHostname()`, `getPort()`, `getEscapedPath()`,
 * `getQuery()` (a map of lists). Parsing follows the WHATWG URL rules for absolute URLs.
 * @param env the environment (not yet cloned)
 */
export function registerUrlLibrary(env: Environment): void {
  env.registerType('URL', Url);
  env
    .registerFunction('url(string): URL', (s: string) => {
      const u = parse(s);
      if (!u)
        throw new EvaluationError(
          `URL parse error during conversion from string: parse ${JSON.stringify(s)}: invalid URI for request`,
        );
      return u;
    })
    .registerFunction('isURL(string): bool', (s: string) => parse(s) !== undefined)
    .registerFunction('URL.getScheme(): string', (u: Url) =>
      isPathOnly(u) ? '' : u.url.protocol.slice(0, -1),
    )
    .registerFunction('URL.getHost(): string', (u: Url) => (isPathOnly(u) ? '' : u.url.host))
    .registerFunction('URL.getHostname(): string', (u: Url) =>
      isPathOnly(u) ? '' : u.url.hostname.replace(/^\[(.*)\]$/, '$1'),
    )
    .registerFunction('URL.getPort(): string', (u: Url) => (isPathOnly(u) ? '' : u.url.port))
    .registerFunction('URL.getEscapedPath(): string', (u: Url) => u.path)
    .registerFunction('URL.getQuery(): map<string, list<string>>', (u: Url) => {
      const out = new Map<string, string[]>();
      for (const [k, v] of u.url.searchParams) out.set(k, [...(out.get(k) ?? []), v]);
      return out;
    });
}
