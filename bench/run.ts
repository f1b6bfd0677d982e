// Runs every benchmark in bench/ as its own fresh process, one after another, and prints their reports.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const file of benches) {
  process.stdout.write(`\n=== ${file} ===\n`);
  const result = spawnSync(process.execPath, ['--expose-gc', join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    process.stdout.write(`${file} exited with ${result.status ?? result.signal}\n`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
