// NETWORKING_VALIDATORS: the networking.k8s.io/v1 kinds' field rules (Ingresses, IngressClasses, NetworkPolicies).
import type { KindValidator } from '../builtin-validation.ts';
import { validateIngressClass } from './ingress-class-validation.ts';
import { validateIngress } from './ingress-validation.ts';
import { validateNetworkPolicy } from './network-policy-validation.ts';

/** The networking.k8s.io rules, by resource id. */
export const NETWORKING_VALIDATORS: Readonly<Record<string, KindValidator>> = {
  'networking.k8s.io/ingresses': (o) => validateIngress(o),
  'networking.k8s.io/ingressclasses': validateIngressClass,
  'networking.k8s.io/networkpolicies': (o) => validateNetworkPolicy(o),
};
