// CORE_VALIDATORS: the core/v1 kinds' field rules (Pods, Services, ConfigMaps, Secrets, Nodes, PersistentVolumes and claims, ResourceQuotas, LimitRanges, and pod templates in RCs and PodTemplates).
import type { KindValidator } from '../builtin-validation.ts';
import { validateConfigData } from './config-data-validation.ts';
import { validateNode } from './core-node-validation.ts';
import { validatePod } from './core-pod-validation.ts';
import { validateService } from './core-service-validation.ts';
import { fieldError } from './field-error.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateLimitRange } from './limit-range-validation.ts';
import { validatePersistentVolumeClaim } from './persistent-volume-claim-validation.ts';
import { validatePersistentVolume } from './persistent-volume-validation.ts';
import { validatePodTemplate } from './pod-template-validation.ts';
import { validateResourceQuota } from './resource-quota-validation.ts';

/** The core/v1 rules, by resource id. */
export const CORE_VALIDATORS: Readonly<Record<string, KindValidator>> = {
  pods: (o, old) => validatePod(o, old),
  services: (o) => validateService(o),
  configmaps: validateConfigData('ConfigMap'),
  secrets: validateConfigData('Secret'),
  nodes: (o) => validateNode(o),
  persistentvolumes: validatePersistentVolume,
  persistentvolumeclaims: validatePersistentVolumeClaim,
  resourcequotas: (o) => validateResourceQuota(o),
  limitranges: (o) => validateLimitRange(o),
  podtemplates: (o) => validatePodTemplate((o as Obj).template, 'template', { names: true }),
  replicationcontrollers: (o) => {
    const spec = shape.obj((o as Obj).spec);
    const selector = shape.obj(spec.selector) as Record<string, string>;
    const labels = shape.obj(shape.obj(shape.obj(spec.template).metadata).labels);
    const out = validatePodTemplate(spec.template, 'spec.template', {
      owner: 'ReplicationController',
      restartPolicies: ['Always'],
      names: true,
    });
    if (spec.template && Object.entries(selector).some(([k, v]) => labels[k] !== v))
      out.push(
        fieldError.invalid(
          'spec.template.metadata.labels',
          labels,
          '`selector` does not match template `labels`',
        ),
      );
    return out;
  },
};
