// terminationPrerequisites: which containers each sidecar waits for when a pod stops (app containers first, then sidecars in reverse order).
import type { Pod } from '../api/core-v1.ts';

/**
 * The kubelet's termination ordering for sidecars (newTerminationOrdering). Invariants: app
 * containers and regular init containers wait for nothing; each running sidecar (init container with
 * restartPolicy Always) waits for every running app container and for the sidecar declared right
 * after it, so sidecars stop in reverse spec order once the app is gone. Containers that are not
 * running are never waited for.
 *
 * ```
 * initContainers: [log (sidecar), proxy (sidecar)]   containers: [app]
 * app: []   proxy: [app]   log: [app, proxy]
 * ```
 *
 * @param pod the pod being stopped
 * @param running names of its containers that still run
 * @returns each running container's name → the running names it must see stopped first
 */
export function terminationPrerequisites(pod: Pod, running: Iterable<string>): Map<string, string[]> {
  const alive = new Set(running);
  const result = new Map<string, string[]>();
  const apps = pod.spec.containers.map((c) => c.name).filter((n) => alive.has(n));
  for (const name of apps) result.set(name, []);
  const inits = pod.spec.initContainers ?? [];
  let later: string | undefined;
  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i];
    if (!c) continue;
    if (c.restartPolicy !== 'Always') {
      if (alive.has(c.name)) result.set(c.name, []);
      continue;
    }
    if (alive.has(c.name)) result.set(c.name, [...apps, ...(later && alive.has(later) ? [later] : [])]);
    later = c.name;
  }
  return result;
}
