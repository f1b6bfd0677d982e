// Every protobuf message package the embedded API server knows, compiled once into one table.
import { MessageTable } from './message-table.ts';
import { APPS_V1 } from './messages/apps-v1.ts';
import { AUTHENTICATION_V1 } from './messages/authentication-v1.ts';
import { AUTHORIZATION_V1 } from './messages/authorization-v1.ts';
import { AUTOSCALING_V1 } from './messages/autoscaling-v1.ts';
import { AUTOSCALING_V2 } from './messages/autoscaling-v2.ts';
import { BATCH_V1 } from './messages/batch-v1.ts';
import { CERTIFICATES_V1 } from './messages/certificates-v1.ts';
import { COORDINATION_V1 } from './messages/coordination-v1.ts';
import { COORDINATION_V1BETA1 } from './messages/coordination-v1beta1.ts';
import { CORE_V1 } from './messages/core-v1.ts';
import { DISCOVERY_V1 } from './messages/discovery-v1.ts';
import { EVENTS_V1 } from './messages/events-v1.ts';
import { META_V1 } from './messages/meta-v1.ts';
import { NETWORKING_V1 } from './messages/networking-v1.ts';
import { NODE_V1 } from './messages/node-v1.ts';
import { POLICY_V1 } from './messages/policy-v1.ts';
import { RBAC_V1 } from './messages/rbac-v1.ts';
import { SCHEDULING_V1 } from './messages/scheduling-v1.ts';
import { SCHEDULING_V1ALPHA3 } from './messages/scheduling-v1alpha3.ts';
import { STORAGE_V1 } from './messages/storage-v1.ts';

/** The packages, in no particular order; a new package is a new file under messages/ and a line here. */
export const MESSAGE_PACKAGES = [
  APPS_V1,
  AUTHENTICATION_V1,
  AUTHORIZATION_V1,
  AUTOSCALING_V1,
  AUTOSCALING_V2,
  BATCH_V1,
  CERTIFICATES_V1,
  COORDINATION_V1,
  COORDINATION_V1BETA1,
  CORE_V1,
  DISCOVERY_V1,
  EVENTS_V1,
  META_V1,
  NETWORKING_V1,
  NODE_V1,
  POLICY_V1,
  RBAC_V1,
  SCHEDULING_V1,
  SCHEDULING_V1ALPHA3,
  STORAGE_V1,
] as const;

/** The compiled messages of every package. */
export const MESSAGES: MessageTable = new MessageTable(MESSAGE_PACKAGES);
