// Convergence under injected network faults: kube-rx's informer and @kubernetes/client-node's makeInformer, side by side, per fault setting.
import { exponentialBackoff } from '../operators/backoff.ts';
import { startApiServer } from '../src/apiserver/index.ts';
import { FAULT_PLANS, type FaultPlanName } from '../src/testing/fault-plan.ts';
import {
  runConvergenceTrials,
  summarizeTrials,
  type TrialInformerFactory,
} from '../src/testing/fault-trial.ts';
import { kubeRxTrialInformer } from '../src/testing/fault-trial-informer.ts';
import { kubeApiClient } from '../streams/client-node/kube-api-client.ts';
import { clientNodeTrialInformer } from './_client-node-informer.ts';

// Usage: node bench/faults.ts [setting ...] [--trials N] [--concurrency N] [--subjects a,b]
// (BENCH_TRIALS and BENCH_CONCURRENCY are the defaults of --trials and --concurrency, e.g. BENCH_TRIALS=3
// for a quick check through `npm run bench -- faults`.)
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const positional = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const settings = (positional.length ? positional : Object.keys(FAULT_PLANS)) as FaultPlanName[];
const trials = Number(option('trials', process.env.BENCH_TRIALS ?? '20'));
const concurrency = Number(option('concurrency', process.env.BENCH_CONCURRENCY ?? '10'));

/**
 * The harness shape of issue 19's settings: the initial list has objects to stream (so a hang can hit
 * it mid-stream), and the writes touch all of them.
 */
const SHAPES: Partial<Record<FaultPlanName, { initialObjects: number; keys: number }>> = {
  stalls6s: { initialObjects: 500, keys: 500 },
  hangs: { initialObjects: 500, keys: 500 },
  hangsInList: { initialObjects: 500, keys: 500 },
};

const SUBJECTS: Record<string, { label: string; make: () => TrialInformerFactory }> = {
  'kube-rx': { label: 'kube-rx (defaults)', make: () => kubeRxTrialInformer() },
  'kube-rx-short': {
    label: 'kube-rx (inactivity 2 s, request timeout 2 s, backoff 0.1-1 s)',
    make: () =>
      kubeRxTrialInformer({
        inactivityTimeoutMs: 2000,
        requestTimeoutMs: 2000,
        backoff: () => exponentialBackoff({ initialMs: 100, maxMs: 1000 }),
      }),
  },
  'kube-rx-fixed': {
    label:
      'kube-rx with fixed windows (25 s inactivity, 60 s list, no head hedge), as before issue 19; not run by default',
    make: () => kubeRxTrialInformer({ stallFloorMs: 25_000 }),
  },
  'client-node': {
    label: '@kubernetes/client-node 2.0.1 makeInformer (start() again 1 s after an error)',
    make: () => clientNodeTrialInformer({ restartDelayMs: 1000 }),
  },
};
const subjects = option('subjects', 'kube-rx,kube-rx-short,client-node').split(',');
for (const s of subjects) if (!SUBJECTS[s]) throw new Error(`unknown subject ${s}`);
for (const s of settings) if (!(s in FAULT_PLANS)) throw new Error(`unknown fault setting ${s}`);

// client-node throws from its watch line handler on an event without metadata, which would end the
// process; count such crashes instead and go on.
let uncaught = 0;
const uncaughtSamples = new Set<string>();
process.on('uncaughtException', (error) => {
  uncaught++;
  uncaughtSamples.add(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
});

const server = await startApiServer({ bookmarkIntervalMs: 1000 });
const writer = kubeApiClient({
  kubeConfig: { from: 'string', yaml: server.kubeconfig },
  qps: Number.POSITIVE_INFINITY,
});

const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '> 10 s');
process.stdout.write(
  `${trials} trials per row (seeds 1..${trials}), ${concurrency} at a time; writes for 2 s (create/patch/delete, 12 names), then wait up to 10 s.\n` +
    'Time to converge: from the last write until cache and handler view equal the server (names and resourceVersions).\n' +
    'Faults go on while waiting. API server bookmarks every 1 s (only kube-rx asks for them).\n' +
    `${Object.keys(SHAPES).join(', ')}: 500 objects created before the informer starts; the writes touch all 500.\n` +
    'watch/list: requests per trial through the proxy (watch includes the streaming watch-lists; list counts pages).\n\n',
);
const rows: string[][] = [
  [
    'fault setting',
    'informer',
    '≤ 5 s',
    '≤ 10 s',
    'median',
    'p90',
    'watch/trial',
    'list/trial',
    'violations',
    'uncaught',
    'faults/trial',
  ],
];
let nsRun = 0;
for (const setting of settings) {
  for (const subject of subjects) {
    const run = nsRun++;
    const uncaughtBefore = uncaught;
    const results = await runConvergenceTrials({
      upstream: server,
      writer,
      seeds: Array.from({ length: trials }, (_, i) => i + 1),
      namespaceOf: (seed) => `b${run}-${seed}`,
      plan: FAULT_PLANS[setting],
      informer: SUBJECTS[subject]!.make(),
      concurrency,
      writeMs: 2000,
      deadlineMs: 10_000,
      ...(SHAPES[setting] ?? {}),
    });
    const s = summarizeTrials(results);
    const faults =
      results.reduce(
        (n, r) =>
          n +
          Object.entries(r.faults)
            .filter(([k]) => k !== 'split' && k !== 'delay')
            .reduce((a, [, v]) => a + v, 0),
        0,
      ) / results.length;
    const row = [
      setting,
      subject,
      `${s.within5s}/${s.trials}`,
      `${s.within10s}/${s.trials}`,
      seconds(s.medianMs),
      seconds(s.p90Ms),
      s.watchRequestsPerTrial.toFixed(1),
      s.listRequestsPerTrial.toFixed(1),
      String(s.violations),
      String(uncaught - uncaughtBefore),
      faults.toFixed(1),
    ];
    rows.push(row);
    process.stdout.write(`${row.join(' | ')}\n`);
    // the trials that missed 5 s, with what was still different, so a failing seed can be run again alone
    for (const r of results.filter((x) => !x.converged || (x.convergeMs ?? Infinity) > 5000)) {
      process.stdout.write(
        `  seed ${r.seed}: ${r.converged ? `${r.convergeMs} ms` : 'not converged'} ${r.mismatch}\n`,
      );
    }
  }
}

process.stdout.write('\n');
for (const [i, r] of rows.entries()) {
  process.stdout.write(`| ${r.join(' | ')} |\n`);
  if (i === 0) process.stdout.write(`|${r.map(() => '---').join('|')}|\n`);
}
process.stdout.write(`\nfaults/trial counts disruptive faults (not split lines or delays).\n`);
for (const s of subjects) process.stdout.write(`${s}: ${SUBJECTS[s]!.label}\n`);
if (uncaught > 0) process.stdout.write(`uncaught exceptions: ${[...uncaughtSamples].join('; ')}\n`);
writer.close();
await server.close();
process.exit(0);
