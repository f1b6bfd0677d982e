// decodeStaticPods: a manifest's text (JSON or YAML, a Pod or a PodList) to defaulted, validated static pods.
import { parse as parseYaml } from 'yaml';
import { InvalidInputError } from '../errors.ts';
import { applyStaticPodDefaults, type StaticPodOrigin } from './apply-static-pod-defaults.ts';
import type { Pod } from './types.ts';
import { validateStaticPod } from './validate-static-pod.ts';

export interface DecodeStaticPodsOptions extends StaticPodOrigin {
  /** Accept a `v1` PodList as well as a single Pod (the HTTP source does, the file source does not). */
  allowList?: boolean;
}

/** The pods of a manifest, or why it was refused (the error names the manifest and the field). */
export type DecodeStaticPodsResult = { ok: true; pods: Pod[] } | { ok: false; error: InvalidInputError };

/**
 * Decodes one manifest as the kubelet's tryDecodeSinglePod / tryDecodePodList do: JSON or YAML;
 * a `v1` Pod (or, with `allowList`, a `v1` PodList whose every item must pass); each pod needs a
 * name, gets the static-pod defaults and must validate. A list with one bad item is refused whole.
 * @param text the manifest's content
 * @param options where it came from, the node name and whether lists are accepted
 * @returns the defaulted pods, or an InvalidInputError naming the manifest and the field
 */
export function decodeStaticPods(text: string, options: DecodeStaticPodsOptions): DecodeStaticPodsResult {
  const input = options.source;
  const refuse = (field: string | undefined, message: string, cause?: unknown): DecodeStaticPodsResult => ({
    ok: false,
    error: new InvalidInputError(input, field, message, cause === undefined ? undefined : { cause }),
  });
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    try {
      doc = parseYaml(text);
    } catch (error) {
      return refuse(undefined, `not JSON or YAML: ${(error as Error).message.split('\n')[0]}`, error);
    }
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    return refuse(undefined, "couldn't parse as a pod: not an object");
  }
  const obj = doc as Record<string, unknown>;
  const kinds = options.allowList ? 'a v1 Pod or PodList' : 'a v1 Pod';
  if (obj.apiVersion !== 'v1') {
    return refuse('apiVersion', `couldn't parse as ${kinds}: apiVersion ${JSON.stringify(obj.apiVersion)}`);
  }
  let items: unknown[];
  let list = false;
  if (obj.kind === 'Pod') items = [obj];
  else if (obj.kind === 'PodList' && options.allowList) {
    if (!Array.isArray(obj.items)) return refuse('items', 'a PodList needs an items list');
    items = obj.items;
    list = true;
  } else return refuse('kind', `couldn't parse as ${kinds}: kind ${JSON.stringify(obj.kind)}`);
  const pods: Pod[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const at = list ? `items[${i}].` : '';
    if (!item || typeof item !== 'object' || Array.isArray(item))
      return refuse(list ? `items[${i}]` : undefined, 'not an object');
    const pod = item as Pod;
    if (!pod.metadata?.name || typeof pod.metadata.name !== 'string') {
      return refuse(`${at}metadata.name`, 'invalid pod: name is needed for the pod');
    }
    const defaulted = applyStaticPodDefaults(pod, options);
    const errors = validateStaticPod(defaulted);
    if (errors.length > 0) {
      return refuse(
        `${at}${errors[0]!.field}`,
        `invalid pod: ${errors.map((e) => `${at}${e.field}: ${e.message}`).join('; ')}`,
      );
    }
    pods.push(defaulted);
  }
  return { ok: true, pods };
}
