// ServiceAccount admission: pods get an account (`default` unless named) and, unless opted out, its projected token volume.
import type { KubeObject } from '../../../operators/types.ts';
import { forbidden } from '../api-status.ts';
import type { AdmissionPlugin, AdmissionRequest, AdmissionStore } from './admission-chain.ts';
import { fieldObject, forbiddenMessage } from './admission-chain.ts';

type Obj = Record<string, unknown>;

export const DEFAULT_SERVICE_ACCOUNT = 'default';
/** Where the token, CA and namespace files are mounted in every container. */
export const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const VOLUME_PREFIX = 'kube-api-access-';
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The projected volume upstream adds: a bound token of 3607 s, the cluster CA and the namespace. */
export function tokenVolume(name: string): Obj {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
    },
  };
}

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? (value as Obj[]) : [];
}

function isPod(request: AdmissionRequest): boolean {
  return request.def.group === '' && request.def.resource === 'pods' && !request.subresource;
}

function admitPod(
  request: AdmissionRequest,
  store: Parameters<NonNullable<AdmissionPlugin['admit']>>[1],
): void {
  const pod = request.object;
  if (pod.metadata?.annotations?.[MIRROR_ANNOTATION] !== undefined) return;
  const spec = fieldObject(pod, 'spec');
  if (!spec.serviceAccountName) spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT;
  const saName = String(spec.serviceAccountName);
  const sa = store.get('serviceaccounts', request.namespace, saName);
  if (!sa) {
    throw forbidden(
      forbiddenMessage(
        request,
        `error looking up service account ${request.namespace}/${saName}: serviceaccount "${saName}" not found`,
      ),
      { name: request.name },
      'pods',
    );
  }
  const automount =
    typeof spec.automountServiceAccountToken === 'boolean'
      ? spec.automountServiceAccountToken
      : (sa as Obj).automountServiceAccountToken !== false;
  if (!automount) return;
  const containers = [...list(spec.initContainers), ...list(spec.containers)];
  const mounted = containers.some((c) =>
    list(c.volumeMounts).some((m) => m.mountPath === SERVICE_ACCOUNT_MOUNT_PATH),
  );
  if (mounted) return;
  const volumes = list(spec.volumes);
  let volumeName = volumes.find((v) => String(v.name).startsWith(VOLUME_PREFIX))?.name as string | undefined;
  if (!volumeName) {
    let suffix = '';
    for (let i = 0; i < 5; i++)
      suffix += SUFFIX_ALPHABET[Math.floor(store.random() * SUFFIX_ALPHABET.length)];
    volumeName = `${VOLUME_PREFIX}${suffix}`;
    spec.volumes = [...volumes, tokenVolume(volumeName)];
  }
  for (const c of containers) {
    c.volumeMounts = [
      ...list(c.volumeMounts),
      { name: volumeName, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT_PATH },
    ];
  }
}

/**
 * The ServiceAccount plugin: a pod gets `default` when it names none, is refused when its account is
 * missing, and gets the token volume. Creating `default` in each namespace is the serviceaccount
 * controller's job (the registry does it itself with `builtinNamespaceControllers`).
 */
export const serviceAccountAdmission: AdmissionPlugin = {
  name: 'ServiceAccount',
  admit(request, store) {
    if (request.operation !== 'CREATE' || !isPod(request) || !store.serves('serviceaccounts')) return;
    admitPod(request, store);
  },
};

/**
 * Waits for a ServiceAccount the serviceaccount controller should create: up to ten looks at the store,
 * `intervalMs` apart (upstream's admission makes ten live lookups for `default`, 100–200 ms apart).
 * Resolves whether or not it appeared; the admission that follows refuses the pod if it did not.
 */
export async function awaitServiceAccount(
  store: Pick<AdmissionStore, 'get'>,
  namespace: string,
  name: string,
  intervalMs: number,
): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    if (store.get('serviceaccounts', namespace, name)) return;
    if (attempt < 9) await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Creates the namespace's `default` ServiceAccount when it is missing. */
export function ensureDefaultServiceAccount(
  store: Parameters<NonNullable<AdmissionPlugin['committed']>>[1],
  namespace: string,
): void {
  if (store.get('serviceaccounts', namespace, DEFAULT_SERVICE_ACCOUNT)) return;
  const sa: KubeObject = {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace },
  };
  store.createAsServer('serviceaccounts', namespace, sa);
}
