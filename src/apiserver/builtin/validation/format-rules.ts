// formatErrors: apimachinery's string-format checks (IsDNS1123Label, IsValidPortName, IsConfigMapKey, ...) in its words.
import { labelKeyErrors, labelValueErrors } from '../../../../operators/label-selector.ts';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const CONFIG_MAP_KEY = /^[-._a-zA-Z0-9]+$/;
const PERCENT = /^[0-9]+%$/;

/** upstream's RegexError: the message, its examples and the expression used. */
function regexError(message: string, regex: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${regex}')`;
  return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${regex}')`;
}

const maxLen = (n: number) => `must be no more than ${n} characters`;

/** Problems with a string in a given format, each a message; empty when the string is valid. */
export const formatErrors = {
  dns1123Label(value: string): string[] {
    const out: string[] = [];
    if (value.length > 63) out.push(maxLen(63));
    if (!DNS1123_LABEL.test(value))
      out.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          '[a-z0-9]([-a-z0-9]*[a-z0-9])?',
          'my-name',
          '123-abc',
        ),
      );
    return out;
  },
  dns1123Subdomain(value: string): string[] {
    const out: string[] = [];
    if (value.length > 253) out.push(maxLen(253));
    if (!DNS1123_SUBDOMAIN.test(value))
      out.push(
        regexError(
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
          '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*',
          'example.com',
        ),
      );
    return out;
  },
  dns1035Label(value: string): string[] {
    const out: string[] = [];
    if (value.length > 63) out.push(maxLen(63));
    if (!DNS1035_LABEL.test(value))
      out.push(
        regexError(
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
          '[a-z]([-a-z0-9]*[a-z0-9])?',
          'my-name',
          'abc-123',
        ),
      );
    return out;
  },
  /** IsWildcardDNS1123Subdomain: `*.` and a DNS subdomain (an Ingress host or TLS host with a wildcard). */
  wildcardDns1123Subdomain(value: string): string[] {
    const out: string[] = [];
    if (value.length > 253) out.push(maxLen(253));
    if (!/^\*\./.test(value) || !DNS1123_SUBDOMAIN.test(value.slice(2)))
      out.push(
        regexError(
          "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
          '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*',
          '*.example.com',
        ),
      );
    return out;
  },
  /** IsValidPathSegmentName: a name that can be one segment of a URL path. */
  pathSegmentName(value: string): string[] {
    if (value === '.' || value === '..') return [`may not be '${value}'`];
    return ['/', '%'].filter((c) => value.includes(c)).map((c) => `may not contain '${c}'`);
  },
  /** IsValidPortName: an IANA service name. */
  portName(value: string): string[] {
    const out: string[] = [];
    if (value.length > 15) out.push(maxLen(15));
    if (!/^[-a-z0-9]+$/.test(value))
      out.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
    if (!/[a-z]/.test(value)) out.push('must contain at least one letter (a-z)');
    if (value.includes('--')) out.push('must not contain consecutive hyphens (--)');
    if (value.startsWith('-') || value.endsWith('-')) out.push('must not begin or end with a hyphen (-)');
    return out;
  },
  /** IsValidPortNum */
  portNumber(value: number): string[] {
    return Number.isInteger(value) && value >= 1 && value <= 65535
      ? []
      : ['must be between 1 and 65535, inclusive'];
  },
  /** IsConfigMapKey: a key of a ConfigMap's or Secret's data. */
  configMapKey(value: string): string[] {
    const out: string[] = [];
    if (value.length > 253) out.push(maxLen(253));
    if (!CONFIG_MAP_KEY.test(value))
      out.push(
        regexError(
          "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
          '[-._a-zA-Z0-9]+',
          'key.name',
          'KEY_NAME',
          'key_name',
        ),
      );
    if (value === '.') out.push("must not be '.'");
    else if (value === '..') out.push("must not be '..'");
    else if (value.startsWith('..')) out.push("must not start with '..'");
    return out;
  },
  /** IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation, on by default since 1.32). */
  envVarName(value: string): string[] {
    for (const ch of value) {
      const code = ch.codePointAt(0)!;
      if (code < 32 || code > 126 || ch === '=')
        return [
          "a valid environment variable name must consist only of printable ASCII characters other than '='",
        ];
    }
    return [];
  },
  /** IsValidPercent */
  percent(value: string): string[] {
    return PERCENT.test(value)
      ? []
      : [
          regexError(
            "a valid percent string must be a numeric string followed by an ending '%'",
            '[0-9]+%',
            '1%',
            '93%',
          ),
        ];
  },
  /** IsQualifiedName: a label key, annotation key, taint key or condition type. */
  qualifiedName: (value: string): string[] => labelKeyErrors(value),
  /** IsValidLabelValue */
  labelValue: (value: string): string[] => labelValueErrors(value),
} as const;
