// rootCAFromKubeconfig: the current context's cluster CA, decoded; a kubeconfig without one is refused naming the field.
import { describe, expect, it } from 'vitest';
import { rootCAFromKubeconfig } from '../../../../src/controllers/root-ca-cert-publisher/root-ca-from-kubeconfig.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const kubeconfig = (current: string) => `
apiVersion: v1
kind: Config
current-context: ${current}
contexts:
- name: a
  context: { cluster: one, user: u }
- name: b
  context: { cluster: two, user: u }
clusters:
- name: one
  cluster: { server: 'https://127.0.0.1:1', certificate-authority-data: ${b64('CA one')} }
- name: two
  cluster: { server: 'https://127.0.0.1:2', certificate-authority-data: ${b64('CA two')} }
`;

describe('rootCAFromKubeconfig', () => {
  it.each([
    { current: 'a', ca: 'CA one' },
    { current: 'b', ca: 'CA two' },
    { current: 'missing', ca: 'CA one' },
  ])('context $current → $ca', ({ current, ca }) => {
    expect(rootCAFromKubeconfig(kubeconfig(current))).toBe(ca);
  });

  it('names the field when the cluster has no CA', () => {
    expect(() =>
      rootCAFromKubeconfig('clusters:\n- name: x\n  cluster: { server: "http://127.0.0.1:1" }\n'),
    ).toThrow('kubeconfig (clusters[].cluster.certificate-authority-data): the cluster has no CA to publish');
  });
});
