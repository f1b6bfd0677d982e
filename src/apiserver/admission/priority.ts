// Priority admission: spec.priority from the pod's PriorityClass or the global default; PriorityClass rules.
import { forbidden } from '../api-status.ts';
import type { AdmissionPlugin, AdmissionRequest } from './admission-chain.ts';
import { fieldObject, forbiddenMessage } from './admission-chain.ts';

type Obj = Record<string, unknown>;

const PRIORITY_CLASSES = 'scheduling.k8s.io/priorityclasses';
/** The highest value a user-defined PriorityClass may have. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** The classes present from the start. */
export const SYSTEM_PRIORITY_CLASSES: readonly Obj[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2_000_001_000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2_000_000_000,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

function isPod(r: AdmissionRequest): boolean {
  return r.def.group === '' && r.def.resource === 'pods' && !r.subresource;
}

function isPriorityClass(r: AdmissionRequest): boolean {
  return r.def.group === 'scheduling.k8s.io' && r.def.resource === 'priorityclasses';
}

/** The global default: the globalDefault class with the lowest value, as upstream picks among several. */
function globalDefault(classes: Obj[]): Obj | undefined {
  let best: Obj | undefined;
  for (const c of classes) {
    if (c.globalDefault !== true) continue;
    if (!best || Number(c.value) < Number(best.value)) best = c;
  }
  return best;
}

/** The Priority plugin. */
export const priorityAdmission: AdmissionPlugin = {
  name: 'Priority',
  admit(request, store) {
    if (request.operation !== 'CREATE' || !isPod(request) || !store.serves(PRIORITY_CLASSES)) return;
    const spec = fieldObject(request.object, 'spec');
    const name = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
    let value = 0;
    let policy: unknown = 'PreemptLowerPriority';
    if (name === '') {
      const def = globalDefault(store.list(PRIORITY_CLASSES) as Obj[]);
      if (def) {
        value = Number(def.value);
        policy = def.preemptionPolicy ?? policy;
        spec.priorityClassName = (def.metadata as Obj).name;
      }
    } else {
      const pc = store.get(PRIORITY_CLASSES, undefined, name) as Obj | undefined;
      if (!pc)
        throw forbidden(
          forbiddenMessage(request, `no PriorityClass with name ${name} was found`),
          {
            name: request.name,
          },
          'pods',
        );
      value = Number(pc.value);
      policy = pc.preemptionPolicy ?? policy;
    }
    if (typeof spec.priority === 'number' && spec.priority !== 0 && spec.priority !== value) {
      throw forbidden(
        forbiddenMessage(
          request,
          `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
        ),
        { name: request.name },
        'pods',
      );
    }
    spec.priority = value;
    spec.preemptionPolicy = policy;
  },
  validate(request, store) {
    if (!isPriorityClass(request) || request.operation === 'DELETE') return;
    const pc = request.object as Obj;
    const name = request.name;
    if (request.operation === 'CREATE' && name.startsWith('system-')) {
      const system = SYSTEM_PRIORITY_CLASSES.find((c) => (c.metadata as Obj).name === name);
      if (!system || system.value !== pc.value)
        throw forbidden(
          forbiddenMessage(request, `priority class names with 'system-' prefix are reserved`),
          {
            name,
          },
          'priorityclasses',
        );
    } else if (typeof pc.value === 'number' && pc.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
      throw forbidden(
        forbiddenMessage(
          request,
          `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
        ),
        { name },
        'priorityclasses',
      );
    }
    if (pc.globalDefault === true) {
      const other = (store.list(PRIORITY_CLASSES) as Obj[]).find(
        (c) => c.globalDefault === true && (c.metadata as Obj).name !== name,
      );
      if (other)
        throw forbidden(
          forbiddenMessage(
            request,
            `PriorityClass ${String((other.metadata as Obj).name)} is already marked as default. Only one default can exist`,
          ),
          { name },
          'priorityclasses',
        );
    }
  },
};
