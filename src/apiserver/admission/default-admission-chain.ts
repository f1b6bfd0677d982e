// The admission plugins kube-apiserver enables by default, in its order, as one chain.
import { AdmissionChain } from './admission-chain.ts';
import { defaultTolerationSeconds } from './default-toleration-seconds.ts';
import { limitRanger } from './limit-ranger.ts';
import { namespaceLifecycle } from './namespace-lifecycle.ts';
import { priorityAdmission } from './priority.ts';
import { resourceQuotaAdmission } from './resource-quota.ts';
import { serviceAccountAdmission } from './service-account.ts';

/** NamespaceLifecycle, LimitRanger, ServiceAccount, Priority, DefaultTolerationSeconds, ResourceQuota. */
export function defaultAdmissionChain(): AdmissionChain {
  return new AdmissionChain([
    namespaceLifecycle,
    limitRanger,
    serviceAccountAdmission,
    priorityAdmission,
    defaultTolerationSeconds(),
    resourceQuotaAdmission,
  ]);
}
