// signedClusterInfo: upstream's bootstrap signer cases (no kubeconfig, simple sign, no sign needed, a changed signature, a removed token), as a table.
import { describe, expect, it } from 'vitest';
import { computeDetachedSignature } from '../../../../operators/controller/bootstrap/detached-jws.ts';
import { signedClusterInfo } from '../../../../operators/controller/bootstrap/signed-cluster-info.ts';

const KUBECONFIG = 'apiVersion: v1\nclusters: []\n';
const TOKEN = { id: 'abc123', secret: 'tokensecret12345' };
const SIG = computeDetachedSignature(KUBECONFIG, TOKEN.id, TOKEN.secret);

describe('signedClusterInfo', () => {
  it.each<
    [
      string,
      Record<string, string> | undefined,
      { id: string; secret: string }[],
      Record<string, string> | undefined,
    ]
  >([
    ['no data: nothing to sign', undefined, [TOKEN], undefined],
    ['no kubeconfig key: nothing to sign', { other: 'x' }, [TOKEN], undefined],
    [
      'a simple sign',
      { kubeconfig: KUBECONFIG },
      [TOKEN],
      { kubeconfig: KUBECONFIG, 'jws-kubeconfig-abc123': SIG },
    ],
    ['no sign needed', { kubeconfig: KUBECONFIG, 'jws-kubeconfig-abc123': SIG }, [TOKEN], undefined],
    ['no token, no signature: nothing to do', { kubeconfig: KUBECONFIG }, [], undefined],
    [
      'a stale signature is replaced',
      { kubeconfig: KUBECONFIG, 'jws-kubeconfig-abc123': 'old' },
      [TOKEN],
      { kubeconfig: KUBECONFIG, 'jws-kubeconfig-abc123': SIG },
    ],
    [
      'a removed token loses its signature',
      { kubeconfig: KUBECONFIG, 'jws-kubeconfig-abc123': SIG },
      [],
      { kubeconfig: KUBECONFIG },
    ],
    [
      'other keys are kept',
      { kubeconfig: KUBECONFIG, note: 'n', 'jws-kubeconfig-zzz999': 'gone' },
      [TOKEN],
      { kubeconfig: KUBECONFIG, note: 'n', 'jws-kubeconfig-abc123': SIG },
    ],
  ])('%s', (_name, data, tokens, want) => {
    expect(signedClusterInfo(data, tokens)).toEqual(want);
  });
});
