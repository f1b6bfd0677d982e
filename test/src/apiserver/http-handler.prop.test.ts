// Property: under concurrent HTTP writers, a watch from an rv sees exactly the acknowledged commits after it, in
// order, and a list at an rv equals the replay of those commits up to it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import { podManifest, request, watchLines } from './fixtures/http.ts';

type Op =
  | { kind: 'create' | 'delete' | 'update'; name: string }
  | { kind: 'patch'; name: string; type: 'merge' | 'json' | 'strategic' };

const NAMES = ['a', 'b', 'c', 'd'];
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('create' as const, 'delete' as const, 'update' as const),
    name: fc.constantFrom(...NAMES),
  }),
  fc.record({
    kind: fc.constant('patch' as const),
    name: fc.constantFrom(...NAMES),
    type: fc.constantFrom('merge' as const, 'json' as const, 'strategic' as const),
  }),
);

interface Commit {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  name: string;
  labels: Record<string, string>;
}

describe('embedded API server under concurrent writers', () => {
  let server: RunningApiServer;
  let run = 0;

  beforeAll(async () => {
    // pods go into new namespaces at once: the server gives them their default account itself
    server = await startApiServer({ builtinNamespaceControllers: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('watch from rv = acknowledged commits after rv; list at rv = replay up to rv', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(opArb, { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        async (clients) => {
          const ns = `prop-${run++}`;
          const base = `/api/v1/namespaces/${ns}/pods`;
          expect(
            (await request(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } }))
              .status,
          ).toBe(201);
          const start = Number((await request(server, 'GET', base)).body.metadata.resourceVersion);
          const commits: Commit[] = [];
          let unique = 0;
          const record = (
            type: Commit['type'],
            body: { metadata: { name: string; resourceVersion: string; labels?: Record<string, string> } },
          ) =>
            commits.push({
              rv: Number(body.metadata.resourceVersion),
              type,
              name: body.metadata.name,
              labels: body.metadata.labels ?? {},
            });

          const perform = async (op: Op) => {
            const path = `${base}/${op.name}`;
            const stamp = String(unique++);
            if (op.kind === 'create') {
              const r = await request(server, 'POST', base, { body: podManifest(op.name, { n: stamp }) });
              if (r.status === 201) record('ADDED', r.body);
              else expect(r.status).toBe(409);
            } else if (op.kind === 'delete') {
              const r = await request(server, 'DELETE', path);
              if (r.status === 200) record('DELETED', r.body);
              else expect(r.status).toBe(404);
            } else if (op.kind === 'update') {
              const got = await request(server, 'GET', path);
              if (got.status === 404) return;
              got.body.metadata.labels = { ...got.body.metadata.labels, n: stamp };
              const r = await request(server, 'PUT', path, { body: got.body });
              if (r.status === 200) record('MODIFIED', r.body);
              else expect([404, 409]).toContain(r.status);
            } else if (op.kind === 'patch') {
              const [contentType, patch] =
                op.type === 'json'
                  ? ['application/json-patch+json', [{ op: 'add', path: '/metadata/labels/n', value: stamp }]]
                  : [
                      op.type === 'merge'
                        ? 'application/merge-patch+json'
                        : 'application/strategic-merge-patch+json',
                      { metadata: { labels: { n: stamp } } },
                    ];
              const r = await request(server, 'PATCH', path, {
                body: patch,
                headers: { 'Content-Type': contentType },
              });
              if (r.status === 200) record('MODIFIED', r.body);
              else expect(r.status).toBe(404);
            }
          };
          await Promise.all(
            clients.map(async (ops) => {
              for (const op of ops) await perform(op);
            }),
          );
          commits.sort((x, y) => x.rv - y.rv);
          expect(new Set(commits.map((c) => c.rv)).size).toBe(commits.length);

          // Watches from the start and from a point in the middle see exactly the commits after them.
          const checkpoints = [start, commits[Math.floor(commits.length / 2)]?.rv ?? start];
          for (const from of checkpoints) {
            const after = commits.filter((c) => c.rv > from);
            const watch = watchLines(server, `${base}?watch=true&resourceVersion=${from}`);
            try {
              const events = after.length ? await watch.waitFor(after.length) : [];
              await new Promise((r) => setTimeout(r, 10));
              expect(watch.events.length).toBe(after.length);
              expect(
                events.map((e) => ({
                  rv: Number(e.object.metadata.resourceVersion),
                  type: e.type,
                  name: e.object.metadata.name,
                  labels: e.object.metadata.labels ?? {},
                })),
              ).toEqual(after);
            } finally {
              watch.close();
            }
          }

          // A list at each commit's rv equals the replay of the commits up to it.
          const state = new Map<string, string>();
          for (const c of commits) {
            if (c.type === 'DELETED') state.delete(c.name);
            else state.set(c.name, JSON.stringify(c.labels));
            const r = await request(
              server,
              'GET',
              `${base}?resourceVersion=${c.rv}&resourceVersionMatch=Exact`,
            );
            expect(r.status).toBe(200);
            expect(r.body.metadata.resourceVersion).toBe(String(c.rv));
            const listed = new Map<string, string>(
              r.body.items.map((p: { metadata: { name: string; labels?: Record<string, string> } }) => [
                p.metadata.name,
                JSON.stringify(p.metadata.labels ?? {}),
              ]),
            );
            expect(listed).toEqual(state);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
