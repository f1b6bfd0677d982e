// The kubeconfig host: a worker thread that holds client-node's KubeConfig objects and answers for them.
// client-node's KubeConfig module pulls in its whole generated API (~35 MB of heap); kept here, it never
// enters the main thread's heap, whose size sets how far V8 lets garbage grow between full collections.
//
// Protocol (see kube-config.ts): on the sync port, `load`, answered before the host sets the shared flag
// and wakes the waiting main thread; on the async port, `options` requests answered in any order by
// request id, and `drop`, unanswered.
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  describeKubeConfig,
  type KubeConfigClass,
  loadKubeConfig,
  type PortableKubeConfigSource,
  resolveRequestOptions,
} from './kube-config-resolve.ts';

/** An error as it crosses threads. */
export interface HostError {
  name: string;
  message: string;
  /** InvalidConfigError's field and unprefixed message. */
  field?: string;
  detail?: string;
  code?: string;
}

/** The caller's environment, which kubeconfig loading ($KUBECONFIG, $HOME, in-cluster) and exec plugins read. */
export type HostEnv = Record<string, string | undefined>;

/** On the sync port: load a kubeconfig under `id`. */
export interface LoadRequest {
  op: 'load';
  id: number;
  source: PortableKubeConfigSource;
  env: HostEnv;
}

/** On the async port: forget `id` (unanswered), or resolve its request options (answered by `request`). */
export type AsyncRequest =
  | { op: 'drop'; id: number }
  | { op: 'options'; id: number; request: number; env: HostEnv };

/** What a request came to, errors included. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: HostError };

/** The answer to an options request, matched by its request id. */
export type OptionsAnswer = Outcome & { request: number };

export interface HostData {
  syncPort: MessagePort;
  asyncPort: MessagePort;
  /** Int32Array over a SharedArrayBuffer: slot 0 goes to 1 when a sync answer is posted. */
  flag: Int32Array;
}

function toHostError(error: unknown): HostError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const e = error as Error & { field?: unknown; code?: unknown };
  const out: HostError = { name: e.name, message: e.message };
  if (typeof e.field === 'string') {
    out.field = e.field;
    out.detail = e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field.length + 2) : e.message;
  }
  if (typeof e.code === 'string') out.code = e.code;
  return out;
}

/** Makes this thread's environment the caller's: what it sees is what an in-thread KubeConfig would. */
function adoptEnv(env: HostEnv): void {
  for (const name of Object.keys(process.env)) if (env[name] === undefined) delete process.env[name];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) process.env[name] = value;
}

const { syncPort, asyncPort, flag } = workerData as HostData;
const configs = new Map<number, KubeConfig>();
// loaded once, while the first request waits; a failure is answered to every request
const clientNode: Promise<KubeConfigClass> = import('@kubernetes/client-node').then((m) => m.KubeConfig);
clientNode.catch(() => {});

async function outcome(work: (Class: KubeConfigClass) => unknown): Promise<Outcome> {
  try {
    return { ok: true, value: await work(await clientNode) };
  } catch (error) {
    return { ok: false, error: toHostError(error) };
  }
}

syncPort.on('message', (request: LoadRequest) => {
  void outcome((Class) => {
    adoptEnv(request.env);
    const kc = loadKubeConfig(request.source, Class);
    const description = describeKubeConfig(kc);
    configs.set(request.id, kc);
    return description;
  }).then((answer) => {
    syncPort.postMessage(answer);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
});

asyncPort.on('message', (request: AsyncRequest) => {
  if (request.op === 'drop') {
    configs.delete(request.id);
    return;
  }
  void outcome((Class) => {
    const kc = configs.get(request.id);
    if (!kc) throw new Error(`kubeconfig ${request.id} is not loaded (closed?)`);
    adoptEnv(request.env);
    return resolveRequestOptions(kc, Class);
  }).then((answer) => {
    const message: OptionsAnswer = { ...answer, request: request.request };
    asyncPort.postMessage(message);
  });
});
