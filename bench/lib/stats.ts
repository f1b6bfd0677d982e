// Shared benchmark helpers: quantiles, peak RSS sampling, prom-client histogram quantiles, a machine line and table printing.
import { cpus, loadavg, totalmem } from 'node:os';
import type { Registry } from 'prom-client';

/** The q-quantile (0..1) of `xs` by nearest rank; NaN when empty. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The arithmetic mean; NaN when empty. */
export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Samples this process' RSS every `everyMs` until `stop()`, which returns the peak in bytes. */
export function peakRss(everyMs = 100): { stop(): number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

/** Sum of a counter's values whose labels match `labels`, read from `registry`. */
export async function counterValue(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((a, v) => a + v.value, 0);
}

/**
 * The q-quantile of a prom-client histogram (all label sets merged), interpolated linearly inside the
 * bucket as Prometheus' histogram_quantile does; NaN without observations.
 */
export async function histogramQuantile(registry: Registry, name: string, q: number): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return Number.NaN;
  const { values } = await metric.get();
  const buckets = new Map<number, number>();
  for (const v of values) {
    if ((v as { metricName?: string }).metricName !== `${name}_bucket`) continue;
    const le = v.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(v.labels.le);
    buckets.set(le, (buckets.get(le) ?? 0) + v.value);
  }
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total === 0) return Number.NaN;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const [le, count] of sorted) {
    if (count >= rank) {
      if (!Number.isFinite(le)) return prevLe;
      return prevLe + ((le - prevLe) * (rank - prevCount)) / Math.max(1, count - prevCount);
    }
    prevLe = le;
    prevCount = count;
  }
  return prevLe;
}

/** One line naming the machine and its load, for the reports. */
export function machineLine(): string {
  const c = cpus();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `${c.length} × ${c[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load ${load}`;
}

/** Prints rows as an aligned Markdown table. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  process.stdout.write(`${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
  for (const r of rows) process.stdout.write(`${line(r)}\n`);
}

/** `n` with thousands separators, or `fixed` decimals. */
export function fmt(n: number, fixed = 0): string {
  if (!Number.isFinite(n)) return '–';
  return n.toLocaleString('en-US', { minimumFractionDigits: fixed, maximumFractionDigits: fixed });
}

/** Runs `work(i)` for i in [0, n) with at most `limit` in flight. */
export async function pooled(n: number, limit: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      await work(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
}
