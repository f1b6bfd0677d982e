// Metadata-only informers over real HTTP: the embedded API server sends PartialObjectMetadata, so spec and status never cross the wire.
import { lastValueFrom, type Observable, tap } from 'rxjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../operators/types.ts';
import { informerFactory } from '../../../src/informers/informer-factory.ts';
import { metadataInformer } from '../../../src/informers/metadata-informer.ts';
import { waitForCacheSync } from '../../../src/informers/wait-for-cache-sync.ts';
import { listerWatcher } from '../../../streams/api-client.ts';
import {
  type HttpRequestSpec,
  type HttpTransport,
  nodeHttpTransport,
} from '../../../streams/client-node/http-transport.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { loadKubeConnection } from '../../../streams/client-node/kube-config.ts';
import { NAMESPACES, PODS } from '../../../streams/resources.ts';
import { useEmbeddedCluster } from '../../helpers/embedded-cluster.ts';
import { eventually } from '../../helpers/eventually.ts';

const MARKER = 'only-in-the-spec';
const PODS_IN_NS = 8;

/**
 * A pod whose spec is bulky and carries MARKER, which its metadata never does. The bulk is in values, not
 * in fields: the server's managedFields (part of the metadata) list every field the creator set.
 */
const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'meta' } },
  spec: {
    containers: [
      {
        name: 'c',
        image: `registry.example/${MARKER}:1`,
        env: Array.from({ length: 4 }, (_, i) => ({
          name: `VAR_${i}`,
          value: `${MARKER}-${i}-${'v'.repeat(2000)}`,
        })),
      },
    ],
  },
});

/** What one request received: its path, the Accept header sent, and the response body text. */
interface Received {
  path: string;
  accept: string | undefined;
  text: string;
}

/** Wraps a transport so that every response body is recorded as it arrives. */
function recording(inner: HttpTransport): { transport: HttpTransport; received: Received[] } {
  const received: Received[] = [];
  const entry = (spec: HttpRequestSpec): Received => {
    const r: Received = { path: spec.path, accept: spec.headers?.Accept, text: '' };
    received.push(r);
    return r;
  };
  return {
    received,
    transport: {
      request: (spec) => {
        const r = entry(spec);
        return inner.request(spec).pipe(
          tap((answer) => {
            r.text += answer.body;
          }),
        );
      },
      stream: (spec) => {
        const r = entry(spec);
        return inner.stream(spec).pipe(
          tap((part) => {
            if (part.type === 'text') r.text += part.text;
          }),
        );
      },
    },
  };
}

describe('metadata-only informers over HTTP (embedded API server)', () => {
  const cluster = useEmbeddedCluster({ builtinNamespaceControllers: true });

  beforeAll(async () => {
    await lastValueFrom(cluster.api.create(NAMESPACES, { metadata: { name: 'md' } }));
    for (let i = 0; i < PODS_IN_NS; i++)
      await lastValueFrom(cluster.api.create(PODS, pod(`p${i}`), { namespace: 'md' }));
  });

  /** A client to the embedded server whose received bytes are recorded. */
  const recordingClient = () => {
    const connection = loadKubeConnection({ from: 'string', yaml: cluster.server.kubeconfig });
    const { transport, received } = recording(
      nodeHttpTransport({ server: connection.server, requestOptions: () => connection.requestOptions() }),
    );
    const api = kubeApiClient({ transport });
    return { api, received, close: () => connection.close() };
  };

  /** Runs an informer until it has synced and seen one label change, and returns what crossed the wire. */
  const run = async <T extends KubeObject>(
    start: (api: ReturnType<typeof kubeApiClient>) => {
      informer: { getStore(): { getByKey(key: string): T | undefined }; hasSynced$: Observable<boolean> };
      stop(): void;
    },
    change: string,
  ) => {
    const { api, received, close } = recordingClient();
    const { informer, stop } = start(api);
    try {
      expect(await waitForCacheSync(AbortSignal.timeout(5000), informer)).toBe(true);
      await lastValueFrom(
        cluster.api.patch(PODS, 'p0', { metadata: { labels: { change } } }, 'merge', { namespace: 'md' }),
      );
      await eventually(() =>
        expect(informer.getStore().getByKey('md/p0')?.metadata?.labels?.change).toBe(change),
      );
      return { received, cached: informer.getStore().getByKey('md/p0')! };
    } finally {
      stop();
      close();
    }
  };

  it.each([
    ['a paginated list, then a watch', false],
    ['a streaming watch-list (sendInitialEvents)', true],
  ])(
    "the factory's metadataForResource asks for PartialObjectMetadata: no spec crosses the wire (%s)",
    async (_mode, watchList) => {
      const meta = await run((api) => {
        const factory = informerFactory({ client: api, namespace: 'md', listWatch: { watchList } });
        const informer = factory.metadataForResource(PODS);
        factory.start();
        return { informer, stop: () => factory.shutdown() };
      }, `meta-${watchList}`);
      const full = await run((api) => {
        const factory = informerFactory({ client: api, namespace: 'md', listWatch: { watchList } });
        const informer = factory.forResource(PODS);
        factory.start();
        return { informer, stop: () => factory.shutdown() };
      }, `full-${watchList}`);

      const lists = meta.received.filter((r) => !r.path.includes('watch=true'));
      const watches = meta.received.filter((r) => r.path.includes('watch=true'));
      expect(lists.length > 0).toBe(!watchList);
      expect(watches.length).toBeGreaterThan(0);
      for (const r of lists) {
        expect(r.accept).toMatch(/^application\/json;as=PartialObjectMetadataList;g=meta\.k8s\.io;v=v1,/);
        expect(JSON.parse(r.text).kind).toBe('PartialObjectMetadataList');
      }
      for (const r of watches) {
        expect(r.accept).toMatch(/^application\/json;as=PartialObjectMetadata;g=meta\.k8s\.io;v=v1,/);
      }
      // the watch carried the label change, as metadata only
      const watched = watches
        .flatMap((r) => r.text.split('\n'))
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { type: string; object: KubeObject });
      expect(
        watched.some(
          (e) => e.type === 'MODIFIED' && e.object.metadata?.labels?.change === `meta-${watchList}`,
        ),
      ).toBe(true);
      if (watchList)
        expect(watched.filter((e) => e.type === 'ADDED').length).toBeGreaterThanOrEqual(PODS_IN_NS);
      for (const e of watched.filter((e) => e.type !== 'BOOKMARK')) {
        expect(e.object).not.toHaveProperty('spec');
      }
      expect(meta.received.some((r) => r.text.includes(MARKER))).toBe(false);
      expect(meta.cached).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'p0' } });
      expect(meta.cached).not.toHaveProperty('spec');

      // the full informer over the same recorder does receive the specs: the recorder sees what the server sends
      const bytes = (rs: Received[]) => rs.reduce((n, r) => n + Buffer.byteLength(r.text), 0);
      expect(full.received.some((r) => r.text.includes(MARKER))).toBe(true);
      expect(full.received.every((r) => r.accept === undefined)).toBe(true);
      expect(bytes(meta.received)).toBeLessThan(bytes(full.received) / 4);
    },
  );

  it('a metadataInformer over a plain listerWatcher asks for metadata only too', async () => {
    const { received, cached } = await run((api) => {
      const informer = metadataInformer({ source: listerWatcher(api, PODS, { namespace: 'md' }) });
      const hold = informer.start();
      return { informer, stop: () => hold.unsubscribe() };
    }, 'plain');
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.accept?.includes('as=PartialObjectMetadata'))).toBe(true);
    expect(received.some((r) => r.text.includes(MARKER))).toBe(false);
    expect(cached).not.toHaveProperty('spec');
  });
});
