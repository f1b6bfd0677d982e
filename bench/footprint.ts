// Idle footprint: RSS of a fresh process that reads a kubeconfig and runs one pod informer against a loopback API server with zero objects.
//
// Each client runs in its own fresh process (BENCH_REPS times, default 3; the median is reported), with
// $KUBECONFIG pointing at a file written for the embedded API server (https, token, CA; no pods):
// - baseline: node:http, the kubeconfig read with the `yaml` package, a list then a watch of pods
// - client-node: @kubernetes/client-node 2.0.1 KubeConfig.loadFromDefault() and makeInformer
// - kube-rx: `import ... from 'kube-rx'` (src/index.ts), kubeApiClient() and sharedInformer()
// - kube-rx (informers only): the same informer imported from its own modules (what a light entry loads)
// `RSS at sync` is taken when the informer has synced (its list answered, its watch open); `RSS idle` after
// BENCH_IDLE_MS of idling (default 12 000: kube-rx's kubeconfig host lingers 10 s after its last user left)
// and two forced collections. BENCH_FOOTPRINT_CLIENTS=kube-rx,baseline runs only some.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLIENTS = ['baseline', 'client-node', 'kube-rx', 'kube-rx-informers'] as const;
type Client = (typeof CLIENTS)[number];
const LABELS: Record<Client, string> = {
  baseline: 'node:http + yaml (floor)',
  'client-node': '@kubernetes/client-node 2.0.1 makeInformer',
  'kube-rx': "kube-rx: import from 'kube-rx' (src/index.ts)",
  'kube-rx-informers': 'kube-rx: informer modules only',
};

interface Sample {
  rssAtSyncMb: number;
  rssIdleMb: number;
  heapUsedMb: number;
  threads: number;
}

const mb = (bytes: number) => bytes / (1024 * 1024);

async function measure(): Promise<Omit<Sample, 'rssAtSyncMb'>> {
  const gc = (globalThis as { gc?: () => void }).gc;
  await new Promise((r) => setTimeout(r, Number(process.env.BENCH_IDLE_MS ?? 12_000)));
  gc?.();
  gc?.();
  await new Promise((r) => setTimeout(r, 1000));
  const m = process.memoryUsage();
  let threads = 1;
  try {
    const { readdirSync } = await import('node:fs');
    threads = readdirSync('/proc/self/task').length;
  } catch {
    // not Linux
  }
  return { rssIdleMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), threads };
}

/** Runs one client until it has synced, then reports its memory on stdout and exits. */
async function child(client: Client): Promise<void> {
  let synced: Promise<void>;
  if (client === 'baseline') {
    const { readFileSync } = await import('node:fs');
    const https = await import('node:https');
    const { parse } = await import('yaml');
    const kc = parse(readFileSync(process.env.KUBECONFIG!, 'utf8'));
    const context = kc.contexts.find((c: { name: string }) => c.name === kc['current-context']).context;
    const cluster = kc.clusters.find((c: { name: string }) => c.name === context.cluster).cluster;
    const user = kc.users.find((u: { name: string }) => u.name === context.user).user;
    const options = {
      ca: Buffer.from(cluster['certificate-authority-data'], 'base64'),
      headers: { Authorization: `Bearer ${user.token}` },
    };
    synced = new Promise((resolve, reject) => {
      https
        .get(`${cluster.server}/api/v1/pods`, options, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const list = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            const url = `${cluster.server}/api/v1/pods?watch=true&resourceVersion=${list.metadata.resourceVersion}`;
            https.get(url, options, () => resolve()).on('error', reject);
          });
        })
        .on('error', reject);
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
    const m =
      client === 'kube-rx'
        ? await import('../src/index.ts')
        : {
            ...(await import('../streams/client-node/kube-api-client.ts')),
            ...(await import('../streams/api-client.ts')),
            ...(await import('../streams/resources.ts')),
            ...(await import('../src/informers/shared-informer.ts')),
          };
    const api = m.kubeApiClient();
    const informer = m.sharedInformer({ source: m.listerWatcher(api, m.PODS), name: 'pods' });
    informer.addEventHandler({ onAdd: () => {} });
    synced = new Promise((resolve) => {
      const sub = informer.hasSynced$.subscribe((s: boolean) => {
        if (s) {
          resolve();
          queueMicrotask(() => sub.unsubscribe());
        }
      });
    });
  }
  await synced;
  const rssAtSyncMb = mb(process.memoryUsage().rss);
  const sample: Sample = { rssAtSyncMb, ...(await measure()) };
  process.stdout.write(`${JSON.stringify(sample)}\n`);
  process.exit(0);
}

function runChild(client: Client, kubeconfigPath: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', import.meta.filename, '--child', client], {
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
  process.stdout.write(
    `Fresh process per client, $KUBECONFIG to the embedded API server (https, no pods), ${reps} repetitions, medians.\n\n`,
  );
  const rows: string[][] = [['client', 'RSS at sync', 'RSS idle', 'heap used', 'threads']];
  try {
    for (const client of clients) {
      const samples: Sample[] = [];
      for (let i = 0; i < reps; i++) samples.push(await runChild(client, kubeconfigPath));
      const row = [
        LABELS[client],
        `${median(samples.map((s) => s.rssAtSyncMb)).toFixed(0)} MB`,
        `${median(samples.map((s) => s.rssIdleMb)).toFixed(0)} MB`,
        `${median(samples.map((s) => s.heapUsedMb)).toFixed(0)} MB`,
        String(median(samples.map((s) => s.threads))),
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

const args = process.argv.slice(2);
if (args[0] === '--child') await child(args[1] as Client);
else await main();
