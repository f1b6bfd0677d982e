// Property: however many creates race over HTTP, admission never lets a namespace's usage exceed its quota.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { request } from '../fixtures/http.ts';

describe('ResourceQuota under concurrent creates', () => {
  let server: RunningApiServer;
  let runs = 0;

  beforeAll(async () => {
    server = await startApiServer({ builtinNamespaceControllers: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('accepts exactly as many objects as the quota allows and records that usage', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.constantFrom('pod', 'configmap'), { minLength: 1, maxLength: 12 }),
        async (maxPods, maxConfigMaps, creates) => {
          const ns = `quota-prop-${runs++}`;
          await request(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
          await request(server, 'POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
            body: {
              metadata: { name: 'q' },
              spec: { hard: { pods: String(maxPods), 'count/configmaps': String(maxConfigMaps) } },
            },
          });
          const answers = await Promise.all(
            creates.map((kind, i) =>
              kind === 'pod'
                ? request(server, 'POST', `/api/v1/namespaces/${ns}/pods`, {
                    body: {
                      metadata: { name: `p${i}` },
                      spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
                    },
                  })
                : request(server, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
                    body: { metadata: { name: `c${i}` } },
                  }),
            ),
          );
          const accepted = (kind: string) =>
            answers.filter((a, i) => creates[i] === kind && a.status === 201).length;
          const wanted = (kind: string) => creates.filter((k) => k === kind).length;
          for (const a of answers) expect([201, 403]).toContain(a.status);
          expect(accepted('pod')).toBe(Math.min(maxPods, wanted('pod')));
          expect(accepted('configmap')).toBe(Math.min(maxConfigMaps, wanted('configmap')));
          const pods = (await request(server, 'GET', `/api/v1/namespaces/${ns}/pods`)).body as {
            items: unknown[];
          };
          expect(pods.items.length).toBeLessThanOrEqual(maxPods);
          const q = (await request(server, 'GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)).body as {
            status: { used: Record<string, string> };
          };
          expect(q.status.used).toEqual({
            pods: String(accepted('pod')),
            'count/configmaps': String(accepted('configmap')),
          });
        },
      ),
      { numRuns: 25 },
    );
  });
});
