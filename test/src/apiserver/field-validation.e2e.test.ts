// fieldValidation over HTTP against the embedded API server, with upstream's integration bodies and expectations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import { type RawResponse, request } from './fixtures/http.ts';

// The bodies of test/integration/apiserver/field_validation_test.go, rewritten.
const deployment = (name: string, extra = '') => `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "${name}", "labels": {"app": "nginx"}},
  "spec": {${extra}
    "selector": {"matchLabels": {"app": "nginx"}},
    "template": {"metadata": {"labels": {"app": "nginx"}},
      "spec": {"containers": [{"name": "nginx", "image": "nginx:latest", "imagePullPolicy": "Always"}]}}
  }
}`;

const invalid = (name: string) => `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "dupename", "name": "${name}", "labels": {"app": "nginx"}, "unknownMeta": "metaVal"},
  "spec": {
    "unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2", "paused": true, "paused": false,
    "selector": {"matchLabels": {"app": "nginx"}},
    "template": {"metadata": {"labels": {"app": "nginx"}}, "spec": {"containers": [{
      "name": "nginx", "image": "nginx:latest", "unknownNested": "val1",
      "imagePullPolicy": "Always", "imagePullPolicy": "Never"}]}}
  }
}`;

const INVALID_FINDINGS = [
  'duplicate field "metadata.name"',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
];

const MERGE_PATCH = `{"spec": {
  "unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2", "paused": true, "paused": false,
  "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:latest", "unknownNested": "val1",
    "imagePullPolicy": "Always", "imagePullPolicy": "Never"}]}}}}`;

const SMP = `{"spec": {
  "unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2", "paused": true, "paused": false,
  "selector": {"matchLabels": {"app": "nginx"}},
  "template": {"metadata": {"labels": {"app": "nginx"}}, "spec": {"containers": [{"name": "nginx",
    "unknownNested": "val1", "imagePullPolicy": "Always", "imagePullPolicy": "Never"}]}}}}`;

const NONCONFLICTING = `{"spec": {"paused": true, "paused": false,
  "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:latest",
    "imagePullPolicy": "Always", "imagePullPolicy": "Never"}]}}}}`;

const JSON_PATCH = `[
  {"op": "add", "path": "/spec/unknown1", "value": "val1", "foo": "bar"},
  {"op": "add", "path": "/spec/unknown2", "path": "/spec/unknown3", "value": "val1"},
  {"op": "add", "path": "/spec/unknownDupe", "value": "valDupe"},
  {"op": "add", "path": "/spec/unknownDupe", "value": "valDupe2"},
  {"op": "add", "path": "/spec/paused", "value": true},
  {"op": "add", "path": "/spec/paused", "value": false},
  {"op": "add", "path": "/spec/template/spec/containers/0/unknownNested", "value": "val1"},
  {"op": "add", "path": "/spec/template/spec/containers/0/imagePullPolicy", "value": "Always"},
  {"op": "add", "path": "/spec/template/spec/containers/0/imagePullPolicy", "value": "Never"}
]`;

const PATCH_FINDINGS = [
  'duplicate field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];
const NONCONFLICTING_FINDINGS = [
  'duplicate field "spec.paused"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
];
const JSON_PATCH_FINDINGS = [
  'json patch unknown field "[0].foo"',
  'json patch duplicate field "[1].path"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknown3"',
  'unknown field "spec.unknownDupe"',
];

/** The texts of a response's `Warning: 299 - "..."` headers, in order. */
function warnings(r: RawResponse): string[] {
  const raw = r.headers.warning;
  const joined = Array.isArray(raw) ? raw.join(', ') : (raw ?? '');
  return [...joined.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
}

describe('fieldValidation over HTTP (upstream integration cases)', () => {
  let server: RunningApiServer;
  const base = '/apis/apps/v1/namespaces/default/deployments';

  beforeAll(async () => {
    server = await startApiServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  const post = (name: string, query: string) =>
    request(server, 'POST', `${base}${query}`, { raw: invalid(name) });

  it.each([
    // [case, query, status, findings as warnings]
    ['post-strict-validation', '?fieldValidation=Strict', 400, []],
    ['post-warn-validation', '?fieldValidation=Warn', 201, INVALID_FINDINGS],
    ['post-ignore-validation', '?fieldValidation=Ignore', 201, []],
    ['post-no-validation', '', 201, INVALID_FINDINGS],
  ] as const)('%s', async (name, query, status, expected) => {
    const r = await post(name, query);
    expect(r.status).toBe(status);
    expect(warnings(r)).toEqual(expected);
    if (status === 400)
      expect(r.body.message).toBe(
        `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ${INVALID_FINDINGS.join(', ')}`,
      );
    else {
      // The last of a duplicated field wins, unknown fields are dropped.
      expect(r.body.metadata.name).toBe(name);
      expect(r.body.spec.paused).toBe(false);
      expect(r.body.spec).not.toHaveProperty('unknown1');
      expect(r.body.spec.template.spec.containers[0]).not.toHaveProperty('unknownNested');
      expect(r.body.spec.template.spec.containers[0].imagePullPolicy).toBe('Never');
    }
  });

  it.each([
    ['put-strict-validation', '?fieldValidation=Strict', 400, []],
    ['put-warn-validation', '?fieldValidation=Warn', 200, INVALID_FINDINGS],
    ['put-ignore-validation', '?fieldValidation=Ignore', 200, []],
    ['put-no-validation', '', 200, INVALID_FINDINGS],
  ] as const)('%s', async (name, query, status, expected) => {
    expect((await request(server, 'POST', base, { raw: deployment(name) })).status).toBe(201);
    const r = await request(server, 'PUT', `${base}/${name}${query}`, { raw: invalid(name) });
    expect(r.status).toBe(status);
    expect(warnings(r)).toEqual(expected);
  });

  it.each([
    ['merge-patch-strict-validation', 'application/merge-patch+json', MERGE_PATCH, 'Strict', PATCH_FINDINGS],
    ['merge-patch-warn-validation', 'application/merge-patch+json', MERGE_PATCH, 'Warn', PATCH_FINDINGS],
    ['merge-patch-ignore-validation', 'application/merge-patch+json', MERGE_PATCH, 'Ignore', []],
    ['merge-patch-no-validation', 'application/merge-patch+json', MERGE_PATCH, '', PATCH_FINDINGS],
    [
      'json-patch-strict-validation',
      'application/json-patch+json',
      JSON_PATCH,
      'Strict',
      JSON_PATCH_FINDINGS,
    ],
    ['json-patch-warn-validation', 'application/json-patch+json', JSON_PATCH, 'Warn', JSON_PATCH_FINDINGS],
    ['json-patch-ignore-validation', 'application/json-patch+json', JSON_PATCH, 'Ignore', []],
    [
      'nonconflicting-merge-patch-strict',
      'application/merge-patch+json',
      NONCONFLICTING,
      'Strict',
      NONCONFLICTING_FINDINGS,
    ],
    [
      'nonconflicting-merge-patch-warn',
      'application/merge-patch+json',
      NONCONFLICTING,
      'Warn',
      NONCONFLICTING_FINDINGS,
    ],
    ['smp-strict-validation', 'application/strategic-merge-patch+json', SMP, 'Strict', PATCH_FINDINGS],
    ['smp-warn-validation', 'application/strategic-merge-patch+json', SMP, 'Warn', PATCH_FINDINGS],
    ['smp-ignore-validation', 'application/strategic-merge-patch+json', SMP, 'Ignore', []],
    ['smp-no-validation', 'application/strategic-merge-patch+json', SMP, '', PATCH_FINDINGS],
    [
      'nonconflicting-smp-strict',
      'application/strategic-merge-patch+json',
      NONCONFLICTING,
      'Strict',
      NONCONFLICTING_FINDINGS,
    ],
  ] as const)('%s', async (name, type, patch, directive, findings) => {
    expect((await request(server, 'POST', base, { raw: deployment(name) })).status).toBe(201);
    const query = directive ? `?fieldValidation=${directive}` : '';
    const r = await request(server, 'PATCH', `${base}/${name}${query}`, {
      raw: patch,
      headers: { 'Content-Type': type },
    });
    if (directive === 'Strict') {
      expect(r.status).toBe(422);
      expect(r.body.message).toMatch(/^ "" is invalid: patch: Invalid value: ".*": strict decoding error: /s);
      expect(r.body.message.endsWith(`strict decoding error: ${findings.join(', ')}`)).toBe(true);
      expect(warnings(r)).toEqual([]);
    } else {
      expect(r.status).toBe(200);
      expect(warnings(r)).toEqual(findings);
      expect(r.body.spec).not.toHaveProperty('unknown1');
      expect(r.body.spec.template.spec.containers[0]).not.toHaveProperty('unknownNested');
    }
  });
});
