// resourceNameErrors: upstream's checks on resource names in quotas and limit ranges (validateResourceName, ValidateResourceQuotaResourceName, validateContainerResourceName).
import { formatErrors } from './format-rules.ts';

const STANDARD = new Set([
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'ephemeral-storage',
  'services.nodeports',
  'services.loadbalancers',
]);
const QUOTA = new Set([...STANDARD].filter((name) => name !== 'storage'));
const CONTAINER = new Set(['cpu', 'memory', 'ephemeral-storage']);
const INTEGER = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

const isHugePages = (name: string) => name.startsWith('hugepages-');
const isQuotaHugePages = (name: string) =>
  name.startsWith('requests.hugepages-') || name.startsWith('limits.hugepages-');
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
/** IsExtendedResourceName */
const isExtended = (name: string) =>
  !isNative(name) &&
  !name.startsWith('requests.') &&
  formatErrors.qualifiedName(`requests.${name}`).length === 0;

/** Problems with a resource name, each a message; empty when the name is valid there. */
export const resourceNameErrors = {
  /** validateResourceName: qualified, and standard when it has no domain. */
  standard(name: string): string[] {
    const errors = formatErrors.qualifiedName(name);
    if (errors.length > 0) return errors;
    return !name.includes('/') && !STANDARD.has(name) && !isHugePages(name) && !isQuotaHugePages(name)
      ? ['must be a standard resource type or fully qualified']
      : [];
  },
  /** ValidateResourceQuotaResourceName: a resource name a quota may limit. */
  quota(name: string): string[] {
    const errors = resourceNameErrors.standard(name);
    if (!name.includes('/') && !QUOTA.has(name) && !isQuotaHugePages(name))
      errors.push('must be a standard resource for quota');
    return errors;
  },
  /** validateContainerResourceName: a resource a container or pod may request. */
  container(name: string): string[] {
    const errors = formatErrors.qualifiedName(name);
    if (!name.includes('/')) {
      if (!CONTAINER.has(name) && !isHugePages(name))
        errors.push('must be a standard resource for containers');
    } else if (!isNative(name) && !isExtended(name))
      errors.push("doesn't follow extended resource name standard");
    return errors;
  },
  /** IsIntegerResourceName: counted in whole units. */
  isInteger: (name: string): boolean => INTEGER.has(name) || isExtended(name),
  /** IsOvercommitAllowed: requests may be below limits. */
  overcommitAllowed: (name: string): boolean => isNative(name) && !isHugePages(name),
} as const;
