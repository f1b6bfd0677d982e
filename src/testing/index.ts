// kube-rx/testing: the public test kit — a fake API server with fault injection, virtual time, marbles and arbitraries.

export { type ApiServerOptions, type RunningApiServer, startApiServer } from '../apiserver/index.ts';
export {
  type InMemoryLeaseClient,
  type InMemoryLeases,
  inMemoryLeases,
  type PartitionMode,
} from '../leader-election/in-memory-leases.ts';
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
export { HandlerView } from './fault-handler-view.ts';
export {
  FAULT_PLANS,
  type FaultKind,
  type FaultPlan,
  type FaultPlanName,
  type ProxiedRequest,
  pickFault,
  REQUEST_FAULTS,
  type RequestFault,
  STREAM_FAULTS,
  type StreamFault,
  validateFaultPlan,
} from './fault-plan.ts';
export {
  type FaultProxy,
  type FaultProxyConfig,
  type FaultProxyUpstream,
  type InjectedFault,
  startFaultProxy,
} from './fault-proxy.ts';
export { derivedRandom, randomInt, type SeededRandom, seededRandom } from './fault-random.ts';
export {
  type ConvergenceTrialConfig,
  type ConvergenceTrialResult,
  type ConvergenceTrialsConfig,
  describeMismatch,
  runConvergenceTrial,
  runConvergenceTrials,
  summarizeTrials,
  type TrialInformer,
  type TrialInformerFactory,
  type TrialSummary,
  type TrialUpstream,
} from './fault-trial.ts';
export { type KubeRxTrialInformerConfig, kubeRxTrialInformer } from './fault-trial-informer.ts';
export { marbles, testScheduler } from './marbles.ts';
export { VirtualClock } from './virtual-clock.ts';
