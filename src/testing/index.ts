// kube-rx/testing: the public test kit — a fake API server with fault injection, virtual time, marbles and arbitraries.
export {
  expiredError,
  internalError,
  tooLargeResourceVersionError,
  tooManyRequestsError,
} from './api-errors.ts';
export {
  arbApiError,
  arbFault,
  arbFaultPlan,
  arbLabels,
  arbObject,
  arbWriteOp,
  arbWriteSequence,
  type KeySpaceConfig,
  type PlanStep,
} from './arbitraries.ts';
export {
  FakeApiServer,
  type FakeApiServerConfig,
  type Fault,
  fakeListerWatcher,
  type GarbleKind,
  type WriteOp,
} from './fake-api-server.ts';
export { marbles, testScheduler } from './marbles.ts';
export { VirtualClock } from './virtual-clock.ts';
