// Reads the host's /proc: each process's parent, process group, CPU time and resident memory.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** One line of /proc/<pid>/stat, the fields this runtime uses. */
export interface ProcEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  /** user + system CPU time in nanoseconds. */
  cpuNanos: number;
  /** resident set size in bytes. */
  rssBytes: number;
  /** start time in clock ticks after boot: with the pid, names one process (pids are reused). */
  startTicks: number;
}

let ticks: { hz: number; page: number } | undefined;

function units(): { hz: number; page: number } {
  if (ticks) return ticks;
  let hz = 100;
  let page = 4096;
  try {
    hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    page = Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096;
  } catch {}
  ticks = { hz, page };
  return ticks;
}

/** Parses /proc/<pid>/stat; `comm` may hold spaces and parentheses, so fields count from the last `)`. */
export function parseProcStat(text: string): ProcEntry | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const pid = Number.parseInt(text, 10);
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is field 3 (state): ppid 4, pgrp 5, utime 14, stime 15, rss 24
  const at = (n: number) => Number(fields[n - 3]);
  const { hz, page } = units();
  return {
    pid,
    ppid: at(4),
    pgrp: at(5),
    cpuNanos: ((at(14) + at(15)) * 1e9) / hz,
    rssBytes: at(24) * page,
    startTicks: at(22),
  };
}

/** Every process visible in /proc now (processes that vanish while reading are skipped). */
export function procTable(): ProcEntry[] {
  const out: ProcEntry[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    try {
      const entry = parseProcStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (entry) out.push(entry);
    } catch {}
  }
  return out;
}

/** The processes of `roots` and all their descendants, found through parent links. */
export function descendants(table: ProcEntry[], root: number | number[]): ProcEntry[] {
  const byParent = new Map<number, ProcEntry[]>();
  for (const p of table) {
    const list = byParent.get(p.ppid);
    if (list) list.push(p);
    else byParent.set(p.ppid, [p]);
  }
  const roots = new Set(Array.isArray(root) ? root : [root]);
  const seen = new Set<number>();
  const out: ProcEntry[] = [];
  const queue: number[] = [];
  for (const p of table) {
    if (roots.has(p.pid)) {
      out.push(p);
      seen.add(p.pid);
    }
  }
  queue.push(...roots);
  while (queue.length) {
    const pid = queue.shift()!;
    for (const child of byParent.get(pid) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}
