// HttpExtender against a real HTTP(S) extender on loopback: upstream's wire bodies, answers, error texts, nodeCacheCapable, managedResources, TLS, timeouts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { Victims } from '../../../../operators/scheduling/framework/extender.ts';
import { servingCertificates } from '../../../../src/apiserver/certificates.ts';
import type { Extender as ExtenderConfig } from '../../../../src/scheduler/config/types.ts';
import { HttpExtender, toMetaVictims } from '../../../../src/scheduler/extender/http-extender.ts';
import { FakeLister, makeNode, makePod, nodeInfo } from '../../../operators/scheduling/framework/fixtures.ts';
import { type ExtenderServer, startExtenderServer } from './extender-server.ts';

const pod = makePod('p', { uid: 'uid-p' });
const nodes = ['node1', 'node2', 'node3'].map((n) => nodeInfo(makeNode(n)));
const names = (list: readonly { name: string }[]) => list.map((n) => n.name);

describe('HttpExtender over HTTP', () => {
  let server: ExtenderServer;
  const made: HttpExtender[] = [];
  const extender = (config: Partial<ExtenderConfig>) => {
    const e = new HttpExtender({ urlPrefix: server.urlPrefix, ...config });
    made.push(e);
    return e;
  };

  beforeAll(async () => {
    server = await startExtenderServer();
  });
  afterEach(() => {
    for (const e of made.splice(0)) e.close();
    server.requests.length = 0;
    for (const k of Object.keys(server.handlers)) delete server.handlers[k];
  });
  afterAll(async () => {
    await server.close();
  });

  it('filter POSTs ExtenderArgs with the nodes and maps the answer back to the NodeInfos', async () => {
    server.handlers.filter = (body) => {
      const items = (body.Nodes as { items: { metadata: { name: string } }[] }).items;
      return {
        Nodes: { items: items.filter((n) => n.metadata.name !== 'node2') },
        NodeNames: null,
        FailedNodes: { node2: 'node2 is busy' },
        FailedAndUnresolvableNodes: null,
        Error: '',
      };
    };
    const out = await extender({ filterVerb: 'filter' }).filter(pod, nodes);
    expect(out.feasible).toEqual([nodes[0], nodes[2]]);
    expect(out.feasible[0]).toBe(nodes[0]);
    expect(out.failed).toEqual({ node2: 'node2 is busy' });
    expect(out.failedAndUnresolvable).toEqual({});
    const req = server.requests[0]!;
    expect(req.verb).toBe('filter');
    expect(req.contentType).toBe('application/json');
    expect(Object.keys(req.body).sort()).toEqual(['NodeNames', 'Nodes', 'Pod']);
    expect(req.body.NodeNames).toBeNull();
    expect((req.body.Pod as Pod).metadata.uid).toBe('uid-p');
    expect((req.body.Nodes as { items: unknown[] }).items).toHaveLength(3);
  });

  it('a nodeCacheCapable extender gets and answers node names only', async () => {
    server.handlers.filter = (body) => ({
      NodeNames: (body.NodeNames as string[]).filter((n) => n !== 'node1'),
      FailedAndUnresolvableNodes: { node1: 'never' },
    });
    const out = await extender({ filterVerb: 'filter', nodeCacheCapable: true }).filter(pod, nodes);
    expect(names(out.feasible)).toEqual(['node2', 'node3']);
    expect(out.failedAndUnresolvable).toEqual({ node1: 'never' });
    expect(server.requests[0]!.body.Nodes).toBeNull();
    expect(server.requests[0]!.body.NodeNames).toEqual(['node1', 'node2', 'node3']);
  });

  it('reads answers case-insensitively, as Go does', async () => {
    server.handlers.filter = () => ({ nodenames: ['node3'], failedNodes: { node1: 'x', node2: 'y' } });
    const out = await extender({ filterVerb: 'filter', nodeCacheCapable: true }).filter(pod, nodes);
    expect(names(out.feasible)).toEqual(['node3']);
    expect(out.failed).toEqual({ node1: 'x', node2: 'y' });
  });

  it.each<[string, unknown, Partial<ExtenderConfig>, string]>([
    [
      'a name it was not given',
      { NodeNames: ['node9'] },
      { nodeCacheCapable: true },
      `extender "<prefix>" claims a filtered node "node9" which is not found in the input node list`,
    ],
    ['the Error field', { Error: 'extender is unhappy' }, {}, 'extender is unhappy'],
    [
      'a status other than 200',
      { status: 500, body: {} },
      {},
      'failed filter with extender at URL <prefix>/filter, code 500',
    ],
    [
      'FailedNodes that are not a map',
      { FailedNodes: ['node1'] },
      {},
      'extender <prefix> filter answer: FailedNodes must be a map of node name to message',
    ],
  ])('a filter answer with %s is an error', async (_name, answer, config, message) => {
    server.handlers.filter = () => answer;
    await expect(extender({ filterVerb: 'filter', ...config }).filter(pod, nodes)).rejects.toThrow(
      message.replaceAll('<prefix>', server.urlPrefix),
    );
  });

  it('without a filterVerb every node passes and nothing is sent', async () => {
    const out = await extender({}).filter(pod, nodes);
    expect(out.feasible).toEqual(nodes);
    expect(server.requests).toHaveLength(0);
  });

  it('prioritize returns the HostPriorityList and the configured weight', async () => {
    server.handlers.prioritize = () => [
      { Host: 'node1', Score: 3 },
      { host: 'node2', score: 10 },
    ];
    const out = await extender({ prioritizeVerb: 'prioritize', weight: 4 }).prioritize(pod, nodes);
    expect(out).toEqual({
      scores: [
        { host: 'node1', score: 3 },
        { host: 'node2', score: 10 },
      ],
      weight: 4,
    });
    expect(server.requests[0]!.verb).toBe('prioritize');
  });

  it('without a prioritizeVerb every node scores 0 with weight 0', async () => {
    expect(await extender({ weight: 3 }).prioritize(pod, nodes.slice(0, 2))).toEqual({
      scores: [
        { host: 'node1', score: 0 },
        { host: 'node2', score: 0 },
      ],
      weight: 0,
    });
  });

  it('bind POSTs ExtenderBindingArgs; an Error in the answer fails the binding', async () => {
    server.handlers.bind = (body) => (body.Node === 'node2' ? { Error: 'node2 refuses' } : {});
    const ext = extender({ bindVerb: 'bind' });
    await ext.bind(pod, 'node1', new AbortController().signal);
    expect(server.requests[0]!.body).toEqual({
      PodName: 'p',
      PodNamespace: 'default',
      PodUID: 'uid-p',
      Node: 'node1',
    });
    await expect(ext.bind(pod, 'node2', new AbortController().signal)).rejects.toThrow('node2 refuses');
  });

  it('bind without a bindVerb is an error', async () => {
    await expect(extender({}).bind(pod, 'node1', new AbortController().signal)).rejects.toThrow(
      'unexpected empty bindVerb in extender',
    );
  });

  it('a request longer than httpTimeout fails', async () => {
    server.handlers.filter = () => 'hang';
    await expect(extender({ filterVerb: 'filter', httpTimeout: '200ms' }).filter(pod, nodes)).rejects.toThrow(
      `Post "${server.urlPrefix}/filter": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    );
  });

  it('aborting the bind signal ends the request', async () => {
    server.handlers.bind = () => 'hang';
    const ctl = new AbortController();
    const pending = extender({ bindVerb: 'bind' }).bind(pod, 'node1', ctl.signal);
    ctl.abort(new Error('scheduler stopped'));
    await expect(pending).rejects.toThrow('scheduler stopped');
  });

  it('an extender that is down fails with the connection error', async () => {
    const down = new HttpExtender({ urlPrefix: 'http://127.0.0.1:1/scheduler', filterVerb: 'filter' });
    made.push(down);
    await expect(down.filter(pod, nodes)).rejects.toThrow(
      /^Post "http:\/\/127\.0\.0\.1:1\/scheduler\/filter": /,
    );
  });

  it('keeps no socket or timer once its requests have ended (teardown)', async () => {
    const handles = () =>
      process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'Timeout').length;
    const before = handles();
    server.handlers.filter = (body) => ({ NodeNames: body.NodeNames });
    const ext = extender({ filterVerb: 'filter', nodeCacheCapable: true, httpTimeout: '30s' });
    await ext.filter(pod, nodes);
    await ext.filter(pod, nodes);
    ext.close();
    // sockets close on their own events; wait for them, at most a few seconds
    for (let i = 0; i < 200 && handles() > before; i++) await new Promise((r) => setImmediate(r));
    expect(handles()).toBeLessThanOrEqual(before);
  });

  it('fails at once after close()', async () => {
    server.handlers.filter = () => ({ NodeNames: [] });
    const ext = extender({ filterVerb: 'filter', nodeCacheCapable: true });
    ext.close();
    await expect(ext.filter(pod, nodes)).rejects.toThrow(`extender ${server.urlPrefix} closed`);
    expect(server.requests).toHaveLength(0);
  });

  describe('preemption', () => {
    const victimsOn = (node: string, ...uids: string[]) =>
      nodeInfo(
        makeNode(node),
        uids.map((u) => makePod(u, { uid: u, nodeName: node })),
      );
    const lister = new FakeLister([victimsOn('node1', 'uid1', 'uid3'), victimsOn('node2', 'uid2', 'uid4')]);
    const candidates = new Map<string, Victims>([
      ['node1', { pods: lister.get('node1')!.pods.map((p) => p.pod), numPDBViolations: 1 }],
      ['node2', { pods: lister.get('node2')!.pods.map((p) => p.pod), numPDBViolations: 2 }],
    ]);

    it('sends full victims, or UIDs when nodeCacheCapable, and resolves the answer on the nodes', async () => {
      server.handlers.preempt = () => ({
        NodeNameToMetaVictims: { node2: { Pods: [{ UID: 'uid4' }], NumPDBViolations: 0 } },
      });
      const out = await extender({ preemptVerb: 'preempt' }).processPreemption(pod, candidates, lister);
      expect([...out.keys()]).toEqual(['node2']);
      expect(out.get('node2')!.pods.map((p) => p.metadata.uid)).toEqual(['uid4']);
      expect(out.get('node2')!.numPDBViolations).toBe(0);
      const sent = server.requests[0]!.body;
      expect(sent.NodeNameToMetaVictims).toBeNull();
      expect(
        (sent.NodeNameToVictims as Record<string, { Pods: Pod[] }>).node1!.Pods.map((p) => p.metadata.uid),
      ).toEqual(['uid1', 'uid3']);

      await extender({ preemptVerb: 'preempt', nodeCacheCapable: true }).processPreemption(
        pod,
        candidates,
        lister,
      );
      const meta = server.requests[1]!.body;
      expect(meta.NodeNameToVictims).toBeNull();
      expect(meta.NodeNameToMetaVictims).toEqual({
        node1: { Pods: [{ UID: 'uid1' }, { UID: 'uid3' }], NumPDBViolations: 1 },
        node2: { Pods: [{ UID: 'uid2' }, { UID: 'uid4' }], NumPDBViolations: 2 },
      });
    });

    it.each<[string, unknown, string]>([
      [
        'a pod not on that node',
        { NodeNameToMetaVictims: { node1: { Pods: [{ UID: 'uid2' }] } } },
        'extender: <prefix> claims to preempt pod (UID: &{uid2}) on node: node1, but the pod is not found on that node',
      ],
      [
        'a node it does not know',
        { NodeNameToMetaVictims: { node7: { Pods: [{ UID: 'uid2' }] } } },
        'nodeinfo not found for node name "node7"',
      ],
    ])('an answer naming %s is an error', async (_name, answer, message) => {
      server.handlers.preempt = () => answer;
      await expect(
        extender({ preemptVerb: 'preempt' }).processPreemption(pod, candidates, lister),
      ).rejects.toThrow(message.replace('<prefix>', server.urlPrefix));
    });

    it('without a preemptVerb processPreemption is an error', async () => {
      await expect(extender({}).processPreemption(pod, candidates, lister)).rejects.toThrow(
        `preempt verb is not defined for extender ${server.urlPrefix} but run into ProcessPreemption`,
      );
    });

    it('converts victims to meta victims, carrying NumPDBViolations (upstream TestConvertToMetaVictims)', () => {
      expect(toMetaVictims(candidates)).toEqual({
        node1: { Pods: [{ UID: 'uid1' }, { UID: 'uid3' }], NumPDBViolations: 1 },
        node2: { Pods: [{ UID: 'uid2' }, { UID: 'uid4' }], NumPDBViolations: 2 },
      });
    });

    it('carries NumPDBViolations from the answer to the victims (upstream TestConvertToVictims)', async () => {
      server.handlers.preempt = () => ({
        NodeNameToMetaVictims: {
          node1: { Pods: [{ UID: 'uid1' }, { UID: 'uid3' }], NumPDBViolations: 1 },
          node2: { Pods: [{ UID: 'uid2' }, { UID: 'uid4' }], NumPDBViolations: 2 },
        },
      });
      const out = await extender({ preemptVerb: 'preempt' }).processPreemption(pod, candidates, lister);
      expect(
        Object.fromEntries(
          [...out].map(([n, v]) => [n, [v.pods.map((p) => p.metadata.name), v.numPDBViolations]]),
        ),
      ).toEqual({
        node1: [['uid1', 'uid3'], 1],
        node2: [['uid2', 'uid4'], 2],
      });
    });
  });
});

describe('HttpExtender.isInterested (upstream TestIsInterested)', () => {
  const withResources = (where: 'requests' | 'limits' | 'init', names: string[]): Pod => {
    const list = Object.fromEntries(names.map((n) => [n, '0']));
    const c = {
      name: 'app',
      image: 'pause',
      resources: where === 'limits' ? { limits: list } : { requests: list },
    };
    return where === 'init'
      ? makePod('p', { spec: { initContainers: [c] } })
      : makePod('p', { containers: [c] });
  };
  it.each<[string, string[], Pod, boolean]>([
    ['empty managed resources', [], makePod('p'), true],
    ['managed memory, no resources', ['memory'], makePod('p'), false],
    [
      'managed memory, a container requesting memory',
      ['memory'],
      withResources('requests', ['memory']),
      true,
    ],
    ['managed memory, a container limiting memory', ['memory'], withResources('limits', ['memory']), true],
    [
      'managed memory, an init container requesting memory',
      ['memory'],
      withResources('init', ['memory']),
      true,
    ],
    [
      'managed example.com/gpu, a pod asking for cpu',
      ['example.com/gpu'],
      withResources('requests', ['cpu']),
      false,
    ],
  ])('%s', (_name, managed, p, want) => {
    const ext = new HttpExtender({
      urlPrefix: 'http://127.0.0.1:1',
      managedResources: managed.map((name) => ({ name })),
    });
    expect(ext.isInterested(p)).toBe(want);
    ext.close();
  });
});

describe('HttpExtender flags', () => {
  it.each<[string, Partial<ExtenderConfig>, Record<string, boolean>]>([
    [
      'no verbs',
      {},
      {
        isFilter: false,
        isPrioritizer: false,
        isBinder: false,
        supportsPreemption: false,
        isIgnorable: false,
      },
    ],
    [
      'every verb, ignorable',
      { filterVerb: 'f', prioritizeVerb: 'p', bindVerb: 'b', preemptVerb: 'x', weight: 1, ignorable: true },
      { isFilter: true, isPrioritizer: true, isBinder: true, supportsPreemption: true, isIgnorable: true },
    ],
  ])('%s', (_name, config, want) => {
    const ext = new HttpExtender({ urlPrefix: 'http://127.0.0.1:1/x', ...config });
    expect({
      isFilter: ext.isFilter(),
      isPrioritizer: ext.isPrioritizer(),
      isBinder: ext.isBinder(),
      supportsPreemption: ext.supportsPreemption(),
      isIgnorable: ext.isIgnorable(),
    }).toEqual(want);
    expect(ext.name()).toBe('http://127.0.0.1:1/x');
    ext.close();
  });

  it('names the field of a bad httpTimeout', () => {
    expect(() => new HttpExtender({ urlPrefix: 'http://x', httpTimeout: 'soon' }, 'extenders[2]')).toThrow(
      /extenders\[2\]\.httpTimeout/,
    );
  });
});

describe('HttpExtender over HTTPS', () => {
  let server: ExtenderServer;
  const certs = servingCertificates('127.0.0.1');

  beforeAll(async () => {
    server = await startExtenderServer({ cert: certs.certPem, key: certs.keyPem });
    server.handlers.filter = (body) => ({ NodeNames: body.NodeNames });
  });
  afterAll(async () => {
    await server.close();
  });

  const run = async (config: Partial<ExtenderConfig>) => {
    const ext = new HttpExtender({
      urlPrefix: server.urlPrefix,
      filterVerb: 'filter',
      nodeCacheCapable: true,
      ...config,
    });
    try {
      return names((await ext.filter(pod, nodes)).feasible);
    } finally {
      ext.close();
    }
  };

  it('verifies the server against caData', async () => {
    expect(await run({ tlsConfig: { caData: Buffer.from(certs.caPem).toString('base64') } })).toEqual([
      'node1',
      'node2',
      'node3',
    ]);
  });

  it('enableHTTPS without a CA skips verification, as upstream', async () => {
    expect(await run({ enableHTTPS: true })).toHaveLength(3);
  });

  it('without a CA or enableHTTPS an unknown certificate fails', async () => {
    await expect(run({})).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
  });

  it('names the field of an unreadable caFile', () => {
    expect(
      () =>
        new HttpExtender(
          { urlPrefix: server.urlPrefix, tlsConfig: { caFile: '/nonexistent/ca.crt' } },
          'extenders[0]',
        ),
    ).toThrow(/extenders\[0\]\.tlsConfig\.caFile/);
  });
});
