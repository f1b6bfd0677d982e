// kubectl explain and kubectl's --validate against the embedded API server: OpenAPI v3 and fieldValidation end to end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { KUBECTL, kubectlRunner } from '../../../helpers/kubectl.ts';

if (!KUBECTL) console.warn('kubectl OpenAPI tests skipped: kubectl is not installed (.ci/run installs it)');

const deployment = (name: string, extra: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: web
        image: nginx
${extra}`;

const TYPO = '        imagePullPolicyy: Always\n';
const UNKNOWN = 'unknown field "spec.template.spec.containers[0].imagePullPolicyy"';

describe.skipIf(!KUBECTL)('kubectl explain and --validate against the embedded API server', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  const runner = kubectlRunner(() => kubeconfig);
  const kubectl = (args: string[], input?: string) =>
    runner.kubectl(['--cache-dir', join(dir, 'cache'), ...args], input);

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-openapi-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('explains pod.spec with its fields, types and required marks', async () => {
    const r = await kubectl(['explain', 'pod.spec']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^KIND:\s+Pod\nVERSION:\s+v1\n/);
    expect(r.stdout).toContain('FIELD: spec <PodSpec>');
    expect(r.stdout).toMatch(/containers\t<\[\]Container> -required-\n\s+The containers of the pod/);
    expect(r.stdout).toMatch(/nodeSelector\t<map\[string\]string>/);
    expect(r.stdout).toMatch(/tolerations\t<\[\]Toleration>/);
  });

  it('explains deployment.spec.template.spec.containers through three schemas', async () => {
    const r = await kubectl(['explain', 'deployment.spec.template.spec.containers']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n/);
    expect(r.stdout).toContain('FIELD: containers <[]Container>');
    expect(r.stdout).toMatch(/image\t<string>/);
    expect(r.stdout).toMatch(/ports\t<\[\]ContainerPort>/);
    expect(r.stdout).toMatch(/resources\t<ResourceRequirements>/);
  });

  it('explains pods --recursive down to leaf fields', async () => {
    const r = await kubectl(['explain', 'pods', '--recursive']);
    expect(r.stderr).toBe('');
    for (const line of [
      /^ {2}metadata\t<ObjectMeta>$/m,
      /^ {4}labels\t<map\[string\]string>$/m,
      /^ {2}spec\t<PodSpec>$/m,
      /^ {4}containers\t<\[\]Container> -required-$/m,
      /^ {6}livenessProbe\t<Probe>$/m,
      /^ {8}httpGet\t<HTTPGetAction>$/m,
      /^ {10}port\t<IntOrString> -required-$/m,
      /^ {2}status\t<PodStatus>$/m,
    ])
      expect(r.stdout).toMatch(line);
  });

  it('explains from the v2 document too (--output plaintext-openapiv2, read as protobuf)', async () => {
    const r = await kubectl([
      'explain',
      '--output',
      'plaintext-openapiv2',
      'deployment.spec.template.spec.containers',
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^KIND:\s+Deployment\nVERSION:\s+apps\/v1\n/);
    expect(r.stdout).toMatch(/RESOURCE: containers <\[\]Object>/);
    expect(r.stdout).toMatch(/image\t<string>/);
  });

  it('says a field that does not exist does not, as upstream', async () => {
    const r = await kubectl(['explain', 'pod.spec.nodeNamee']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('field "nodeNamee" does not exist');
  });

  const crd = (extra: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: What the widget should be.
            properties:
              size: {type: integer, description: How big the widget is.}
${extra}`;

  it("explains a CRD manifest's fields, refuses a typo in one, then explains the custom resource it defines", async () => {
    const fields = await kubectl([
      'explain',
      'customresourcedefinitions.spec.versions.schema.openAPIV3Schema',
    ]);
    expect(fields.stderr).toBe('');
    expect(fields.stdout).toMatch(/^GROUP:\s+apiextensions.k8s.io\nKIND:\s+CustomResourceDefinition\n/);
    expect(fields.stdout).toMatch(/x-kubernetes-preserve-unknown-fields\t<boolean>/);
    expect(fields.stdout).toMatch(/properties\t<map\[string\]JSONSchemaProps>/);

    const typo = await kubectl(['apply', '-f', '-'], crd('              colour: {typ: string}\n'));
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(
      'unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.colour.typ"',
    );

    expect((await kubectl(['apply', '-f', '-'], crd(''))).code).toBe(0);
    expect(
      (await kubectl(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=20s']))
        .code,
    ).toBe(0);
    let explained = await kubectl(['explain', 'widget.spec']);
    for (let i = 0; i < 20 && explained.code !== 0; i++)
      explained = await kubectl(['explain', 'widget.spec']);
    expect(explained.stdout).toMatch(/^GROUP:\s+example.com\nKIND:\s+Widget\nVERSION:\s+v1\n/);
    expect(explained.stdout).toContain('What the widget should be.');
    expect(explained.stdout).toMatch(/size\t<integer>\n\s+How big the widget is./);
    const cr = await kubectl(
      ['apply', '-f', '-'],
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 1, colour: red}\n',
    );
    expect(cr.code).toBe(1);
    expect(cr.stderr).toContain('strict decoding error: unknown field "spec.colour"');
  });

  it.each([
    // [--validate value, exit code, what stderr says, the object is stored]
    [
      'strict',
      1,
      `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ${UNKNOWN}`,
      false,
    ],
    ['true', 1, 'strict decoding error', false],
    ['warn', 0, `Warning: ${UNKNOWN}`, true],
    ['false', 0, '', true],
  ] as const)(
    'kubectl apply --validate=%s of a manifest with a typo',
    async (validate, code, says, stored) => {
      const name = `typo-${validate}`;
      const r = await kubectl(['apply', `--validate=${validate}`, '-f', '-'], deployment(name, TYPO));
      expect(r.code).toBe(code);
      if (says) expect(r.stderr).toContain(says);
      else expect(r.stderr).toBe('');
      const got = await kubectl(['get', 'deployment', name, '-o', 'json']);
      expect(got.code === 0).toBe(stored);
      // Under Warn and Ignore the unknown field is dropped, as decoding into upstream's types drops it.
      if (stored)
        expect(JSON.parse(got.stdout).spec.template.spec.containers[0]).not.toHaveProperty(
          'imagePullPolicyy',
        );
    },
  );

  it('refuses the typo in an apply that patches an existing object, and warns on it otherwise', async () => {
    const clean = deployment('patched', '');
    expect((await kubectl(['apply', '-f', '-'], clean)).code).toBe(0);
    const strict = await kubectl(['apply', '-f', '-'], deployment('patched', TYPO));
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`strict decoding error: ${UNKNOWN}`);
    const warn = await kubectl(['apply', '--validate=warn', '-f', '-'], deployment('patched', TYPO));
    expect(warn.code).toBe(0);
    expect(warn.stderr).toContain(`Warning: ${UNKNOWN}`);
  });
});
