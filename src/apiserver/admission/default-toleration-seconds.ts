// DefaultTolerationSeconds admission: pods tolerate not-ready and unreachable nodes for 300 s unless they say otherwise.
import { type AdmissionPlugin, fieldObject } from './admission-chain.ts';

type Toleration = {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
};

/** Upstream's --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds. */
export const DEFAULT_TOLERATION_SECONDS = 300;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

function tolerates(t: Toleration, key: string): boolean {
  if (t.effect && t.effect !== 'NoExecute') return false;
  if (!t.key) return t.operator === 'Exists';
  return t.key === key;
}

/** The DefaultTolerationSeconds plugin. */
export function defaultTolerationSeconds(seconds = DEFAULT_TOLERATION_SECONDS): AdmissionPlugin {
  return {
    name: 'DefaultTolerationSeconds',
    admit(request) {
      if (request.operation !== 'CREATE' || request.def.group !== '' || request.def.resource !== 'pods')
        return;
      if (request.subresource) return;
      const spec = fieldObject(request.object, 'spec');
      const tolerations = Array.isArray(spec.tolerations) ? (spec.tolerations as Toleration[]) : [];
      const out = [...tolerations];
      for (const key of [NOT_READY, UNREACHABLE]) {
        if (!tolerations.some((t) => tolerates(t, key)))
          out.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
      }
      spec.tolerations = out;
    },
  };
}
