// kube-apiserver's admission chain: mutating plugins in order, then validating ones, then what each does after a commit.
import type { KubeObject } from '../../../operators/types.ts';
import type { ResourceDef } from '../resource-table.ts';

/** One create or update as the admission plugins see it. */
export interface AdmissionRequest {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  def: ResourceDef;
  namespace: string | undefined;
  name: string;
  /** The object about to be stored; mutating plugins change it in place. */
  object: KubeObject;
  oldObject?: KubeObject;
  subresource?: string;
  dryRun?: boolean;
}

/** What plugins may read and write besides the request: the registry's current state. */
export interface AdmissionStore {
  /** Whether the server serves the resource id (`group/resource`, or `resource` for core). */
  serves(resource: string): boolean;
  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
  list(resource: string, namespace?: string): KubeObject[];
  /** Creates an object as the server itself (no admission); ignores AlreadyExists. */
  createAsServer(resource: string, namespace: string | undefined, object: KubeObject): void;
  /** Replaces an object's status as the server itself. */
  writeStatus(resource: string, namespace: string | undefined, name: string, status: unknown): void;
  random(): number;
}

/** One admission plugin. Refusals throw an ApiStatusError, as the registry's other checks do. */
export interface AdmissionPlugin {
  readonly name: string;
  admit?(request: AdmissionRequest, store: AdmissionStore): void;
  validate?(request: AdmissionRequest, store: AdmissionStore): void;
  /** After the request's object was committed (or deleted). */
  committed?(request: AdmissionRequest, store: AdmissionStore): void;
}

/** The plugins run in order: every `admit`, then every `validate`; `committed` after the write. */
export class AdmissionChain {
  readonly plugins: readonly AdmissionPlugin[];

  constructor(plugins: readonly AdmissionPlugin[]) {
    this.plugins = plugins;
  }

  /** Runs mutating then validating admission; throws the first refusal. */
  admit(request: AdmissionRequest, store: AdmissionStore): void {
    for (const p of this.plugins) p.admit?.(request, store);
    for (const p of this.plugins) p.validate?.(request, store);
  }

  committed(request: AdmissionRequest, store: AdmissionStore): void {
    if (request.dryRun) return;
    for (const p of this.plugins) p.committed?.(request, store);
  }
}

/** `<resource> "<name>" is forbidden: <why>`, as admission.NewForbidden words it. */
export function forbiddenMessage(request: AdmissionRequest, why: string): string {
  return `${request.def.resource} "${request.name}" is forbidden: ${why}`;
}

/** The object under `field` of `parent`, created empty when missing (plugins mutate it in place). */
export function fieldObject(parent: object, field: string): Record<string, unknown> {
  const p = parent as Record<string, unknown>;
  const v = p[field];
  if (v === null || typeof v !== 'object' || Array.isArray(v)) p[field] = {};
  return p[field] as Record<string, unknown>;
}
