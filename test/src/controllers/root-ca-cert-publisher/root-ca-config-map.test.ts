// rootCAConfigMapAction: upstream publisher_test cases as a table — create, update on changed data or missing annotation, leave alone.
import { describe, expect, it } from 'vitest';
import {
  type ConfigMap,
  DESCRIPTION,
  DESCRIPTION_ANNOTATION,
  rootCAConfigMapAction,
} from '../../../../src/controllers/root-ca-cert-publisher/root-ca-config-map.ts';

const CA = '-----BEGIN CERTIFICATE-----\nfake\n-----END CERTIFICATE-----\n';
const cm = (data: Record<string, string> | undefined, annotations?: Record<string, string>): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'kube-root-ca.crt',
    namespace: 'ns',
    resourceVersion: '7',
    labels: { keep: 'me' },
    ...(annotations ? { annotations } : {}),
  },
  ...(data ? { data } : {}),
});
const described = { [DESCRIPTION_ANNOTATION]: DESCRIPTION };

describe('rootCAConfigMapAction', () => {
  it.each<{ name: string; current: ConfigMap | undefined; action: 'create' | 'update' | 'none' }>([
    { name: 'a new namespace gets it', current: undefined, action: 'create' },
    {
      name: 'the right data and the annotation: nothing to do',
      current: cm({ 'ca.crt': CA }, described),
      action: 'none',
    },
    {
      name: 'an added field is removed',
      current: cm({ 'ca.crt': CA, other: 'x' }, described),
      action: 'update',
    },
    { name: 'a modified ca.crt is put back', current: cm({ 'ca.crt': 'evil' }, described), action: 'update' },
    { name: 'empty data is filled', current: cm(undefined, described), action: 'update' },
    { name: 'a missing description annotation is added', current: cm({ 'ca.crt': CA }), action: 'update' },
    {
      name: 'an empty description annotation is rewritten',
      current: cm({ 'ca.crt': CA }, { [DESCRIPTION_ANNOTATION]: '' }),
      action: 'update',
    },
  ])('$name', ({ current, action }) => {
    expect(rootCAConfigMapAction('ns', current, CA).type).toBe(action);
  });

  it('creates the ConfigMap upstream creates', () => {
    expect(rootCAConfigMapAction('team-a', undefined, CA)).toEqual({
      type: 'create',
      configMap: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'kube-root-ca.crt', namespace: 'team-a', annotations: described },
        data: { 'ca.crt': CA },
      },
    });
  });

  it('an update keeps the object (resourceVersion, labels, other annotations) and sets only data and the description', () => {
    const action = rootCAConfigMapAction('ns', cm({ 'ca.crt': 'old', extra: '1' }, { mine: 'yes' }), CA);
    expect(action).toEqual({
      type: 'update',
      configMap: {
        ...cm({ 'ca.crt': CA }, { mine: 'yes', ...described }),
      },
    });
  });

  it('the description is upstream’s', () => {
    expect(DESCRIPTION).toBe(
      'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
    );
  });
});
