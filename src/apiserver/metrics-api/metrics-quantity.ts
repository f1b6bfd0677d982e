// CPU and memory quantities and Go duration strings as the metrics API writes them (canonical Kubernetes forms).

/** A CPU quantity from nanocores, in its canonical form (`250m`, `1234567n`). */
export function cpuQuantity(nanoCores: number): string {
  const n = Math.max(0, Math.floor(nanoCores));
  if (n === 0) return '0';
  if (n % 1e9 === 0) return String(n / 1e9);
  if (n % 1e6 === 0) return `${n / 1e6}m`;
  if (n % 1e3 === 0) return `${n / 1e3}u`;
  return `${n}n`;
}

/** A memory quantity from bytes, binary suffixes when they divide exactly (`12Mi`, `4096Ki`, `1234`). */
export function memoryQuantity(bytes: number): string {
  let n = Math.max(0, Math.floor(bytes));
  if (n === 0) return '0';
  for (const suffix of ['Ki', 'Mi', 'Gi', 'Ti', 'Pi']) {
    if (n % 1024 !== 0) return suffix === 'Ki' ? String(n) : `${n}${previous(suffix)}`;
    n /= 1024;
  }
  return `${n}Ei`;
}

function previous(suffix: string): string {
  return { Mi: 'Ki', Gi: 'Mi', Ti: 'Gi', Pi: 'Ti' }[suffix] ?? '';
}

/** A Go duration string (`1.5s`, `15s`, `1m0.25s`, `750ms`) for a window in ms. */
export function goDuration(ms: number): string {
  if (ms <= 0) return '0s';
  if (ms < 1000) return `${trim(ms.toFixed(6))}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = (ms % 60_000) / 1000;
  const s = `${trim(seconds.toFixed(9))}s`;
  if (hours > 0) return `${hours}h${minutes}m${s}`;
  if (minutes > 0) return `${minutes}m${s}`;
  return s;
}

function trim(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}
