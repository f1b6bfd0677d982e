// HttpExtender: kube-scheduler's HTTPExtender, a scheduler extender reached over HTTP(S) with JSON POSTs per verb.
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Container, Pod } from '../../../operators/api/core-v1.ts';
import { InvalidConfigError } from '../../../operators/errors.ts';
import type {
  Extender,
  ExtenderFilterResult as FilterOutcome,
  HostPriority,
  Victims,
} from '../../../operators/scheduling/framework/extender.ts';
import type { NodeInfoLister } from '../../../operators/scheduling/framework/interface.ts';
import { NodeInfo } from '../../../operators/scheduling/framework/node-info.ts';
import { parseGoDuration } from '../../kubelet/go-duration.ts';
import type { Extender as ExtenderConfig } from '../config/types.ts';
import {
  type ExtenderArgs,
  type ExtenderBindingArgs,
  type ExtenderPreemptionArgs,
  goField,
  type MetaVictims,
  type NodeListV1,
} from './extender-v1.ts';

/** Upstream's DefaultExtenderTimeout. */
export const DEFAULT_EXTENDER_TIMEOUT_MS = 5_000;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Reads a `*File` or its base64 `*Data` twin (data wins); undefined when neither is set. */
function pemOf(field: string, file: string | undefined, data: string | undefined): Buffer | undefined {
  if (data) return Buffer.from(data, 'base64');
  if (!file) return undefined;
  try {
    return readFileSync(file);
  } catch (error) {
    throw new InvalidConfigError(field, `cannot read ${file}: ${(error as Error).message}`);
  }
}

/** A string → string map of an answer, or {} when absent. */
function failedMap(answer: unknown, key: string, where: string): Record<string, string> {
  const v = goField(answer, key);
  if (v === undefined || v === null) return {};
  if (!isRecord(v) || Object.values(v).some((m) => typeof m !== 'string'))
    throw new Error(`${where}: ${key} must be a map of node name to message`);
  return v as Record<string, string>;
}

/**
 * A scheduler extender over HTTP, as kube-scheduler's HTTPExtender: each verb is a POST of JSON (upstream's
 * extender/v1 bodies) to `<urlPrefix>/<verb>`; an answer other than 200 is the error
 * "failed <verb> with extender at URL <url>, code <code>"; a request longer than `httpTimeout` (default 5s)
 * fails. `nodeCacheCapable` extenders get node names only (and answer names); `managedResources` limit
 * the pods it is asked about to those requesting or limiting one of them (in containers or init
 * containers); `ignorable` makes its errors skipped by the scheduler. HTTPS: verified against `caFile`/
 * `caData` when given; `enableHTTPS` without a CA skips verification, as upstream.
 *
 * @example
 * const ext = new HttpExtender({ urlPrefix: 'http://127.0.0.1:8888/scheduler', filterVerb: 'filter' });
 * const { feasible, failed } = await ext.filter(pod, nodeInfos);
 *
 * Teardown: `close()` aborts requests in flight; no connection is kept between requests.
 */
export class HttpExtender implements Extender {
  readonly #config: ExtenderConfig;
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #managed: ReadonlySet<string>;
  readonly #agent: http.Agent;
  readonly #closed = new AbortController();

  /**
   * @param config one entry of the configuration's `extenders`
   * @param field how to name it in errors (`extenders[0]`)
   * @throws InvalidConfigError for an unreadable TLS file or a bad httpTimeout
   */
  constructor(config: ExtenderConfig, field = 'extender') {
    this.#config = config;
    this.#url = config.urlPrefix;
    const timeout = config.httpTimeout ? parseGoDuration(`${field}.httpTimeout`, config.httpTimeout) : 0;
    this.#timeoutMs = timeout > 0 ? timeout : DEFAULT_EXTENDER_TIMEOUT_MS;
    this.#managed = new Set((config.managedResources ?? []).map((r) => r.name));
    if (config.urlPrefix.startsWith('https:')) {
      const tls = config.tlsConfig ?? {};
      const ca = pemOf(`${field}.tlsConfig.caFile`, tls.caFile, tls.caData);
      const cert = pemOf(`${field}.tlsConfig.certFile`, tls.certFile, tls.certData);
      const key = pemOf(`${field}.tlsConfig.keyFile`, tls.keyFile, tls.keyData);
      const insecure = Boolean(tls.insecure) || (Boolean(config.enableHTTPS) && !ca);
      this.#agent = new https.Agent({
        keepAlive: false,
        rejectUnauthorized: !insecure,
        ...(ca ? { ca } : {}),
        ...(cert ? { cert } : {}),
        ...(key ? { key } : {}),
        ...(tls.serverName ? { servername: tls.serverName } : {}),
      });
    } else {
      this.#agent = new http.Agent({ keepAlive: false });
    }
  }

  /** Upstream names an extender by its URL prefix. */
  name(): string {
    return this.#url;
  }

  isFilter(): boolean {
    return Boolean(this.#config.filterVerb);
  }

  isPrioritizer(): boolean {
    return Boolean(this.#config.prioritizeVerb);
  }

  isBinder(): boolean {
    return Boolean(this.#config.bindVerb);
  }

  supportsPreemption(): boolean {
    return Boolean(this.#config.preemptVerb);
  }

  isIgnorable(): boolean {
    return Boolean(this.#config.ignorable);
  }

  /** True without managedResources; else when a container or init container requests or limits one. */
  isInterested(pod: Pod): boolean {
    if (this.#managed.size === 0) return true;
    const uses = (containers: readonly Container[] | undefined) =>
      (containers ?? []).some(
        (c) =>
          Object.keys(c.resources?.requests ?? {}).some((r) => this.#managed.has(r)) ||
          Object.keys(c.resources?.limits ?? {}).some((r) => this.#managed.has(r)),
      );
    return uses(pod.spec.containers) || uses(pod.spec.initContainers);
  }

  /** Aborts the requests in flight; later calls fail at once. */
  close(): void {
    this.#closed.abort(new Error(`extender ${this.#url} closed`));
    this.#agent.destroy();
  }

  #args(pod: Pod, nodes: readonly NodeInfo[]): ExtenderArgs {
    if (this.#config.nodeCacheCapable) {
      return { Pod: pod, Nodes: null, NodeNames: nodes.map((n) => n.name) };
    }
    const list: NodeListV1 = { metadata: {}, items: nodes.flatMap((n) => (n.node ? [n.node] : [])) };
    return { Pod: pod, Nodes: list, NodeNames: null };
  }

  /**
   * Upstream's Filter: the nodes the extender keeps (by name when nodeCacheCapable; a name it was not
   * given is an error), the failed ones with their messages, and the unresolvable ones. An answer with
   * `Error` set is that error. Without a filterVerb every node passes.
   */
  async filter(pod: Pod, nodes: readonly NodeInfo[]): Promise<FilterOutcome> {
    const verb = this.#config.filterVerb;
    if (!verb) return { feasible: nodes, failed: {}, failedAndUnresolvable: {} };
    const answer = await this.#send(verb, this.#args(pod, nodes));
    const where = `extender ${this.#url} ${verb} answer`;
    const error = goField(answer, 'Error');
    if (typeof error === 'string' && error !== '') throw new Error(error);
    const byName = new Map(nodes.map((n) => [n.name, n]));
    const names = goField(answer, 'NodeNames');
    const list = goField(answer, 'Nodes');
    let feasible: NodeInfo[] = [];
    if (this.#config.nodeCacheCapable && names !== null && names !== undefined) {
      if (!Array.isArray(names)) throw new Error(`${where}: NodeNames must be a list`);
      feasible = names.map((name) => {
        const found = byName.get(String(name));
        if (!found)
          throw new Error(
            `extender "${this.#url}" claims a filtered node "${String(name)}" which is not found in the input node list`,
          );
        return found;
      });
    } else if (list !== null && list !== undefined) {
      const items = goField(list, 'items');
      if (!Array.isArray(items)) throw new Error(`${where}: Nodes.items must be a list`);
      feasible = items.map((node) => {
        const name = isRecord(node) ? goField(goField(node, 'metadata'), 'name') : undefined;
        return byName.get(String(name)) ?? new NodeInfo(node as NodeInfo['node']);
      });
    }
    return {
      feasible,
      failed: failedMap(answer, 'FailedNodes', where),
      failedAndUnresolvable: failedMap(answer, 'FailedAndUnresolvableNodes', where),
    };
  }

  /** Upstream's Prioritize: the extender's HostPriorityList and its weight (0 for every node without a prioritizeVerb). */
  async prioritize(
    pod: Pod,
    nodes: readonly NodeInfo[],
  ): Promise<{ scores: readonly HostPriority[]; weight: number }> {
    const verb = this.#config.prioritizeVerb;
    if (!verb) return { scores: nodes.map((n) => ({ host: n.name, score: 0 })), weight: 0 };
    const answer = await this.#send(verb, this.#args(pod, nodes));
    const where = `extender ${this.#url} ${verb} answer`;
    if (answer === null) return { scores: [], weight: this.#config.weight ?? 0 };
    if (!Array.isArray(answer)) throw new Error(`${where}: must be a list of {Host, Score}`);
    const scores = answer.map((entry, i) => {
      const host = goField(entry, 'Host');
      const score = goField(entry, 'Score') ?? 0;
      if (typeof host !== 'string' || typeof score !== 'number' || !Number.isInteger(score))
        throw new Error(`${where}: [${i}] must have a string Host and an integer Score`);
      return { host, score };
    });
    return { scores, weight: this.#config.weight ?? 0 };
  }

  /** Upstream's Bind: the extender binds the pod; an answer with `Error` set is that error. */
  async bind(pod: Pod, nodeName: string, signal: AbortSignal): Promise<void> {
    const verb = this.#config.bindVerb;
    if (!verb) throw new Error('unexpected empty bindVerb in extender');
    const args: ExtenderBindingArgs = {
      PodName: pod.metadata.name ?? '',
      PodNamespace: pod.metadata.namespace ?? '',
      PodUID: pod.metadata.uid ?? '',
      Node: nodeName,
    };
    const answer = await this.#send(verb, args, signal);
    const error = goField(answer, 'Error');
    if (typeof error === 'string' && error !== '') throw new Error(error);
  }

  /**
   * Upstream's ProcessPreemption: sends the candidates' victims (as UIDs when nodeCacheCapable) and reads
   * back node → victim UIDs, resolved against the nodes' pods (an unknown node or pod is an error).
   */
  async processPreemption(
    pod: Pod,
    nodeNameToVictims: ReadonlyMap<string, Victims>,
    nodeInfos: NodeInfoLister,
  ): Promise<Map<string, Victims>> {
    const verb = this.#config.preemptVerb;
    if (!verb)
      throw new Error(`preempt verb is not defined for extender ${this.#url} but run into ProcessPreemption`);
    const args: ExtenderPreemptionArgs = this.#config.nodeCacheCapable
      ? { Pod: pod, NodeNameToVictims: null, NodeNameToMetaVictims: toMetaVictims(nodeNameToVictims) }
      : {
          Pod: pod,
          NodeNameToVictims: Object.fromEntries(
            [...nodeNameToVictims].map(([n, v]) => [
              n,
              { Pods: [...v.pods], NumPDBViolations: v.numPDBViolations },
            ]),
          ),
          NodeNameToMetaVictims: null,
        };
    const answer = await this.#send(verb, args);
    const meta = goField(answer, 'NodeNameToMetaVictims');
    if (meta === null || meta === undefined) return new Map();
    if (!isRecord(meta))
      throw new Error(`extender ${this.#url} ${verb} answer: NodeNameToMetaVictims must be a map`);
    return this.#toVictims(meta, nodeInfos);
  }

  #toVictims(meta: Record<string, unknown>, nodeInfos: NodeInfoLister): Map<string, Victims> {
    const out = new Map<string, Victims>();
    for (const [nodeName, mv] of Object.entries(meta)) {
      const nodeInfo = nodeInfos.get(nodeName);
      if (!nodeInfo) throw new Error(`nodeinfo not found for node name "${nodeName}"`);
      const pods = goField(mv, 'Pods');
      const violations = goField(mv, 'NumPDBViolations');
      const victims: Pod[] = [];
      for (const metaPod of Array.isArray(pods) ? pods : []) {
        const uid = String(goField(metaPod, 'UID') ?? '');
        const found = nodeInfo.pods.find((p) => p.pod.metadata.uid === uid);
        if (!found)
          throw new Error(
            `extender: ${this.#url} claims to preempt pod (UID: &{${uid}}) on node: ${nodeName}, but the pod is not found on that node`,
          );
        victims.push(found.pod);
      }
      out.set(nodeName, { pods: victims, numPDBViolations: typeof violations === 'number' ? violations : 0 });
    }
    return out;
  }

  /**
   * POSTs `args` to `<urlPrefix>/<verb>`; resolves with the decoded JSON of a 200 answer. The request is
   * aborted by `close()`, by `signal`, or after httpTimeout (a timer cleared when the request settles).
   */
  #send(verb: string, args: unknown, signal?: AbortSignal): Promise<unknown> {
    const url = `${this.#url.replace(/\/+$/, '')}/${verb}`;
    const body = Buffer.from(JSON.stringify(args));
    const ctl = new AbortController();
    const sources = [this.#closed.signal, ...(signal ? [signal] : [])];
    return new Promise<unknown>((resolve, reject) => {
      let timedOut = false;
      const onAbort = (s: AbortSignal) => () => ctl.abort(s.reason);
      const listeners = sources.map((s) => [s, onAbort(s)] as const);
      const timer = setTimeout(() => {
        timedOut = true;
        ctl.abort(new Error('timeout'));
      }, this.#timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        for (const [s, l] of listeners) s.removeEventListener('abort', l);
      };
      const fail = (error: unknown) => {
        settle();
        const reason = timedOut
          ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)'
          : ctl.signal.aborted
            ? String((ctl.signal.reason as Error)?.message ?? ctl.signal.reason)
            : (error as Error).message;
        reject(new Error(`Post "${url}": ${reason}`));
      };
      for (const [s, l] of listeners) {
        if (s.aborted) ctl.abort(s.reason);
        else s.addEventListener('abort', l, { once: true });
      }
      if (ctl.signal.aborted) {
        fail(ctl.signal.reason);
        return;
      }
      let req: http.ClientRequest;
      try {
        const request = url.startsWith('https:') ? https.request : http.request;
        req = request(url, {
          method: 'POST',
          agent: this.#agent,
          signal: ctl.signal,
          headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
        });
      } catch (error) {
        fail(error);
        return;
      }
      req.on('error', fail);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          settle();
          if (res.statusCode !== 200) {
            reject(new Error(`failed ${verb} with extender at URL ${url}, code ${res.statusCode}`));
            return;
          }
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(new Error(`extender ${this.#url} ${verb} answer: not JSON: ${(error as Error).message}`));
          }
        });
      });
      req.end(body);
    });
  }
}

/** Victims as UIDs, as a nodeCacheCapable extender receives them (upstream's convertToMetaVictims). */
export function toMetaVictims(nodeNameToVictims: ReadonlyMap<string, Victims>): Record<string, MetaVictims> {
  return Object.fromEntries(
    [...nodeNameToVictims].map(([node, v]) => [
      node,
      { Pods: v.pods.map((p) => ({ UID: p.metadata.uid ?? '' })), NumPDBViolations: v.numPDBViolations },
    ]),
  );
}
