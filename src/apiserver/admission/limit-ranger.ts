// LimitRanger admission: container defaults from the namespace's LimitRanges, then their min and max, in upstream's words.

import { thousandths } from '../../../operators/controller/resourcequota/resource-usage.ts';
import { forbidden } from '../api-status.ts';
import type { AdmissionPlugin } from './admission-chain.ts';
import { fieldObject, forbiddenMessage } from './admission-chain.ts';

type Obj = Record<string, unknown>;

const LIMIT_RANGES = 'limitranges';
const ANNOTATION = 'kubernetes.io/limit-ranger';

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? (value as Obj[]) : [];
}

function obj(value: unknown): Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
}

/** A LimitRange item as upstream's defaulting leaves it: defaultRequest from default, default from max. */
function defaulted(item: Obj): Obj {
  const max = obj(item.max);
  const def = { ...max, ...obj(item.default) };
  const defaultRequest = { ...def, ...obj(item.defaultRequest) };
  return { ...item, default: def, defaultRequest };
}

/** The LimitRanger plugin. */
export const limitRanger: AdmissionPlugin = {
  name: 'LimitRanger',
  admit(request, store) {
    if (request.operation !== 'CREATE' || request.def.group !== '' || request.def.resource !== 'pods') return;
    if (request.subresource || !request.namespace || !store.serves(LIMIT_RANGES)) return;
    const items = store
      .list(LIMIT_RANGES, request.namespace)
      .flatMap((lr) => list((lr.spec as Obj | undefined)?.limits))
      .filter((i) => i.type === 'Container')
      .map(defaulted);
    if (items.length === 0) return;
    const spec = obj(request.object.spec);
    const set: string[] = [];
    for (const c of [...list(spec.initContainers), ...list(spec.containers)]) {
      const resources = fieldObject(c, 'resources');
      for (const item of items) {
        for (const [kind, from] of [
          ['requests', 'defaultRequest'],
          ['limits', 'default'],
        ] as const) {
          for (const [name, q] of Object.entries(obj(item[from]))) {
            const target = fieldObject(resources, kind);
            if (target[name] !== undefined) continue;
            // A request defaults to its limit when only the limit is given, as upstream's pod defaulting does.
            target[name] =
              kind === 'requests' && obj(resources.limits)[name] !== undefined
                ? obj(resources.limits)[name]
                : q;
            set.push(
              `${name} ${kind === 'requests' ? 'request' : 'limit'} for ${request.def.resource === 'pods' && list(spec.initContainers).includes(c) ? 'init container' : 'container'} ${String(c.name)}`,
            );
          }
        }
        if (Object.keys(obj(resources.requests)).length === 0) delete resources.requests;
        if (Object.keys(obj(resources.limits)).length === 0) delete resources.limits;
      }
    }
    if (set.length) {
      const meta = fieldObject(request.object, 'metadata');
      meta.annotations = {
        ...(meta.annotations as Obj | undefined),
        [ANNOTATION]: `LimitRanger plugin set: ${set.join('; ')}`,
      };
    }
  },
  validate(request, store) {
    if (request.operation !== 'CREATE' || request.def.group !== '' || request.def.resource !== 'pods') return;
    if (request.subresource || !request.namespace || !store.serves(LIMIT_RANGES)) return;
    const spec = obj(request.object.spec);
    const problems: string[] = [];
    for (const lr of store.list(LIMIT_RANGES, request.namespace)) {
      for (const item of list((lr.spec as Obj | undefined)?.limits)) {
        if (item.type !== 'Container') continue;
        for (const c of [...list(spec.initContainers), ...list(spec.containers)]) {
          const requests = obj(obj(c.resources).requests);
          const limits = obj(obj(c.resources).limits);
          for (const [name, q] of Object.entries(obj(item.min))) {
            if (requests[name] === undefined)
              problems.push(`minimum ${name} usage per Container is ${String(q)}.  No request is specified`);
            else if (thousandths(requests[name]) < thousandths(q))
              problems.push(
                `minimum ${name} usage per Container is ${String(q)}, but request is ${String(requests[name])}`,
              );
          }
          for (const [name, q] of Object.entries(obj(item.max))) {
            if (limits[name] === undefined)
              problems.push(`maximum ${name} usage per Container is ${String(q)}.  No limit is specified`);
            else if (thousandths(limits[name]) > thousandths(q))
              problems.push(
                `maximum ${name} usage per Container is ${String(q)}, but limit is ${String(limits[name])}`,
              );
          }
          for (const [name, q] of Object.entries(obj(item.maxLimitRequestRatio))) {
            const req = thousandths(requests[name]);
            const lim = thousandths(limits[name]);
            if (req === 0 || limits[name] === undefined) continue;
            const ratio = lim / req;
            if (ratio > thousandths(q) / 1000)
              problems.push(
                `${name} max limit to request ratio per Container is ${String(q)}, but provided ratio is ${ratio.toFixed(6)}`,
              );
          }
        }
      }
    }
    if (problems.length === 0) return;
    const why = problems.length === 1 ? problems[0]! : `[${problems.join(', ')}]`;
    throw forbidden(forbiddenMessage(request, why), { name: request.name }, 'pods');
  },
};
