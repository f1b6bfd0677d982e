// A framework that records scheduler_framework_extension_point_duration_seconds around each extension point it runs.
import type { SchedulerLike } from 'rxjs';
import type { Framework } from '../../operators/scheduling/framework/framework.ts';
import type { Status } from '../../operators/scheduling/framework/status.ts';
import type { SchedulerMetrics } from './scheduler-metrics.ts';

/** The framework's run methods and upstream's extension_point label for each. */
const TIMED: Readonly<Record<string, string>> = {
  runPreFilterPlugins: 'PreFilter',
  runPostFilterPlugins: 'PostFilter',
  runPreScorePlugins: 'PreScore',
  runScorePlugins: 'Score',
  runReservePluginsReserve: 'Reserve',
  runReservePluginsUnreserve: 'Unreserve',
  runPermitPlugins: 'Permit',
  runPreBindPlugins: 'PreBind',
  runBindPlugins: 'Bind',
  runPostBindPlugins: 'PostBind',
};

/** The status code of a run method's result: a Status, `{status}` (PreFilter, Score, PostFilter) or nothing. */
function codeOf(result: unknown): string {
  if (result && typeof result === 'object') {
    const r = result as { code?: string; status?: Status };
    if (typeof r.code === 'string') return r.code;
    if (r.status) return r.status.code;
  }
  return 'Success';
}

/**
 * Wraps `fwk` so every extension point it runs (PreFilter, PostFilter, PreScore, Score, Reserve, Unreserve,
 * Permit, PreBind, Bind, PostBind; Filter runs per node and is not timed, as upstream) is observed with its
 * status code and the profile name. Everything else passes through unchanged.
 *
 * @param fwk the framework
 * @param metrics where durations go
 * @param clock the time source (milliseconds)
 * @returns a framework with the same behaviour
 */
export function withExtensionPointMetrics(
  fwk: Framework,
  metrics: SchedulerMetrics,
  clock: SchedulerLike,
): Framework {
  return new Proxy(fwk, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const point = typeof prop === 'string' ? TIMED[prop] : undefined;
      if (!point) return (value as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        const start = clock.now();
        const observe = (result: unknown) => {
          metrics.extensionPoint(point, codeOf(result), target.profileName, (clock.now() - start) / 1000);
          return result;
        };
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result instanceof Promise ? result.then(observe) : observe(result);
      };
    },
  });
}
