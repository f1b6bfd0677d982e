// Idle footprint: RSS of a fresh process that reads a kubeconfig and runs one pod informer against a loopback API server with zero objects.
//
// Each client runs in its own fresh process (BENCH_REPS times, default 3; the median is reported), with
// $KUBECONFIG pointing at a file written for the embedded API server (https, token, CA; no pods). Every
// child is a plain JavaScript file, as a user's process would be; kube-rx is compiled first
// (tsconfig.build.json into a temporary directory), as `npm install kube-rx` gives it:
// - baseline: node:https, the kubeconfig read with the `yaml` package, a list then a watch of pods
// - client-node: @kubernetes/client-node KubeConfig.loadFromDefault() and makeInformer
// - kube-rx: `import ... from 'kube-rx'` (the public entry, built), kubeApiClient() and sharedInformer()
// - kube-rx-informers: the same from `kube-rx/informers` (the light entry, built)
// - kube-rx-source: the light entry's TypeScript source run through Node's type stripping (a checkout's
//   cost: the stripper itself takes ~15 MB)
// `RSS at sync` is taken when the informer has synced (its list answered, its watch open): the issue's
// "before its first object". `RSS idle` after BENCH_IDLE_MS of idling (default 12 000) and two forced
// collections. BENCH_FOOTPRINT_CLIENTS=kube-rx,baseline runs only some.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CLIENTS = ['baseline', 'client-node', 'kube-rx', 'kube-rx-informers', 'kube-rx-source'] as const;
type Client = (typeof CLIENTS)[number];
const LABELS: Record<Client, string> = {
  baseline: 'node:https + yaml (floor)',
  'client-node': '@kubernetes/client-node makeInformer',
  'kube-rx': "kube-rx: import from 'kube-rx' (built)",
  'kube-rx-informers': "kube-rx: import from 'kube-rx/informers' (built)",
  'kube-rx-source': "kube-rx: 'kube-rx/informers' from .ts source (type stripping)",
};

interface Sample {
  rssAtSyncMb: number;
  rssIdleMb: number;
  heapUsedMb: number;
  threads: number;
}

/** The child: plain JavaScript, so no client pays for Node's TypeScript stripper unless it imports .ts. */
const CHILD = `
import { readdirSync, readFileSync } from 'node:fs';
const [client, entry] = process.argv.slice(2);
const mb = (bytes) => bytes / (1024 * 1024);
let synced;
if (client === 'baseline') {
  const https = await import('node:https');
  const { parse } = await import('yaml');
  const kc = parse(readFileSync(process.env.KUBECONFIG, 'utf8'));
  const context = kc.contexts.find((c) => c.name === kc['current-context']).context;
  const cluster = kc.clusters.find((c) => c.name === context.cluster).cluster;
  const user = kc.users.find((u) => u.name === context.user).user;
  const options = {
    ca: Buffer.from(cluster['certificate-authority-data'], 'base64'),
    headers: { Authorization: 'Bearer ' + user.token },
  };
  synced = new Promise((resolve, reject) => {
    https.get(cluster.server + '/api/v1/pods', options, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const list = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const url = cluster.server + '/api/v1/pods?watch=true&resourceVersion=' + list.metadata.resourceVersion;
        https.get(url, options, () => resolve()).on('error', reject);
      });
    }).on('error', reject);
  });
} else if (client === 'client-node') {
  const k8s = await import('@kubernetes/client-node');
  const kc = new k8s.KubeConfig();
  kc.loadFromDefault();
  const api = kc.makeApiClient(k8s.CoreV1Api);
  const informer = k8s.makeInformer(kc, '/api/v1/pods', () => api.listPodForAllNamespaces());
  synced = new Promise((resolve, reject) => {
    informer.on('connect', () => resolve());
    informer.on('error', reject);
  });
  await informer.start();
} else {
  const m = await import(entry);
  const api = m.kubeApiClient();
  const informer = m.sharedInformer({ source: m.listerWatcher(api, m.PODS), name: 'pods' });
  informer.addEventHandler({ onAdd: () => {} });
  synced = new Promise((resolve) => {
    const sub = informer.hasSynced$.subscribe((s) => {
      if (s) {
        resolve();
        queueMicrotask(() => sub.unsubscribe());
      }
    });
  });
}
await synced;
const rssAtSyncMb = mb(process.memoryUsage().rss);
await new Promise((r) => setTimeout(r, Number(process.env.BENCH_IDLE_MS ?? 12000)));
globalThis.gc?.();
globalThis.gc?.();
await new Promise((r) => setTimeout(r, 1000));
const m = process.memoryUsage();
let threads = 1;
try { threads = readdirSync('/proc/self/task').length; } catch {}
process.stdout.write(JSON.stringify({ rssAtSyncMb, rssIdleMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), threads }) + '\\n');
process.exit(0);
`;

/** The module each kube-rx client imports: the built public entry, the built light entry, or the source. */
function entryOf(client: Client, built: string): string {
  const repo = join(import.meta.dirname, '..');
  if (client === 'kube-rx') return pathToFileURL(join(built, 'src/index.js')).href;
  if (client === 'kube-rx-informers') return pathToFileURL(join(built, 'src/informers/index.js')).href;
  return pathToFileURL(join(repo, 'src/informers/index.ts')).href;
}

/** Compiles kube-rx into `dir` as the package is built, with the checkout's node_modules beside it. */
function build(dir: string): string {
  const repo = join(import.meta.dirname, '..');
  const out = join(dir, 'build');
  const tsc = spawnSync(
    process.execPath,
    [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(repo, 'tsconfig.build.json'), '--outDir', out],
    { encoding: 'utf8' },
  );
  if (tsc.status !== 0 && !tsc.stdout.includes('error')) throw new Error(`tsc failed: ${tsc.stderr}`);
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module' }));
  symlinkSync(join(repo, 'node_modules'), join(out, 'node_modules'));
  return out;
}

function runChild(client: Client, kubeconfigPath: string, childPath: string, entry: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', childPath, client, entry], {
      env: { ...process.env, KUBECONFIG: kubeconfigPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    p.stderr.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    p.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code === 0 && line) resolve(JSON.parse(line) as Sample);
      else reject(new Error(`${client} exited ${code}: ${out.slice(0, 800)}`));
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

async function main(): Promise<void> {
  const reps = Number(process.env.BENCH_REPS ?? 3);
  const only = process.env.BENCH_FOOTPRINT_CLIENTS?.split(',');
  const clients = CLIENTS.filter((c) => !only || only.includes(c));
  const { startApiServer } = await import('../src/apiserver/index.ts');
  const server = await startApiServer({});
  const dir = mkdtempSync(join(tmpdir(), 'kube-rx-footprint-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigPath, server.kubeconfig);
  const built = build(dir);
  const childPath = join(built, 'footprint-child.mjs');
  writeFileSync(childPath, CHILD);
  process.stdout.write(
    `Fresh process per client, $KUBECONFIG to the embedded API server (https, no pods), ${reps} repetitions: median [min–max]; aim: RSS at sync ≤ 80 MB.\n\n`,
  );
  const rows: string[][] = [
    [
      'client',
      'RSS at sync',
      'at sync / 80 MB aim',
      'at sync / client-node',
      'RSS idle',
      'heap used',
      'threads',
    ],
  ];
  const spread = (values: number[]) =>
    `${median(values).toFixed(0)} MB [${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}]`;
  const atSync = new Map<Client, number>();
  try {
    for (const client of clients) {
      const samples: Sample[] = [];
      for (let i = 0; i < reps; i++) {
        samples.push(await runChild(client, kubeconfigPath, childPath, entryOf(client, built)));
      }
      const sync = samples.map((x) => x.rssAtSyncMb);
      atSync.set(client, median(sync));
      const peer = atSync.get('client-node');
      const row = [
        LABELS[client],
        spread(sync),
        `${(median(sync) / 80).toFixed(2)}x`,
        peer ? `${(median(sync) / peer).toFixed(2)}x` : '–',
        spread(samples.map((x) => x.rssIdleMb)),
        `${median(samples.map((x) => x.heapUsedMb)).toFixed(0)} MB`,
        String(median(samples.map((x) => x.threads))),
      ];
      rows.push(row);
      process.stdout.write(`${row.join(' | ')}\n`);
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write('\n');
  for (const [i, r] of rows.entries()) {
    process.stdout.write(`| ${r.join(' | ')} |\n`);
    if (i === 0) process.stdout.write(`|${r.map(() => '---').join('|')}|\n`);
  }
  process.exit(0);
}

await main();
