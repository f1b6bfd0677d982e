// The string formats a CRD schema may name, checked as kube-openapi's format registry checks them.

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const HOSTNAME =
  /^([a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*\.?$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAC = /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/;
const DURATION = /^(-?(\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h|d|w))+$/;
const BASE64 = /^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isIpv6(value: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(value) || !value.includes(':')) return false;
  const double = value.split('::');
  if (double.length > 2) return false;
  const groups = value.split(':').filter((g) => g !== '');
  const last = groups[groups.length - 1] ?? '';
  const v4 = last.includes('.') ? (IPV4.test(last) ? 2 : -100) : 0;
  const hex = groups.filter((g) => !g.includes('.'));
  if (!hex.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const count = hex.length + v4;
  return double.length === 2 ? count < 8 : count === 8;
}

function validDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

const CHECKS: Record<string, (value: string) => boolean> = {
  'date-time': (v) => DATE_TIME.test(v) && validDate(v),
  datetime: (v) => DATE_TIME.test(v) && validDate(v),
  date: (v) => DATE.test(v) && validDate(v),
  uuid: (v) => UUID.test(v),
  uuid3: (v) => UUID.test(v),
  uuid4: (v) => UUID.test(v),
  uuid5: (v) => UUID.test(v),
  hostname: (v) => v.length <= 255 && HOSTNAME.test(v),
  email: (v) => EMAIL.test(v),
  mac: (v) => MAC.test(v),
  duration: (v) => DURATION.test(v),
  byte: (v) => BASE64.test(v),
  ipv4: (v) => IPV4.test(v),
  ipv6: (v) => isIpv6(v),
  cidr: (v) => {
    const [ip, bits, ...rest] = v.split('/');
    if (rest.length || bits === undefined || !/^\d+$/.test(bits) || ip === undefined) return false;
    if (IPV4.test(ip)) return Number(bits) <= 32;
    return isIpv6(ip) && Number(bits) <= 128;
  },
  uri: (v) => {
    try {
      return new URL(v).protocol.length > 1;
    } catch {
      return false;
    }
  },
};

/**
 * Whether a string breaks the named format. Formats kube-openapi does not check (int32, password,
 * and any unknown name) never fail, as upstream.
 * @returns true when `value` is not of `format`
 */
export function formatProblem(format: string, value: string): boolean {
  const check = CHECKS[format];
  return check ? !check(value) : false;
}
