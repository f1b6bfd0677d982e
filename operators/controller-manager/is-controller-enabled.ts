// isControllerEnabled: kube-controller-manager's reading of `--controllers` for one controller name.

/**
 * Whether `name` runs under the `--controllers` list, as kube-controller-manager decides it: the first
 * entry naming it wins (`name` on, `-name` off); otherwise it runs only when the list holds `*` and it is
 * not disabled by default. So `*` never starts bootstrap-signer-controller or token-cleaner-controller
 * unless they are named, and a list without `*` runs only what it names.
 *
 * @example
 * isControllerEnabled('job-controller', new Set(), ['*', '-cronjob-controller']); // true
 * @param name the controller's canonical name
 * @param disabledByDefault the names `*` does not enable
 * @param controllers the `--controllers` entries, aliases already translated
 * @returns whether the controller is enabled
 */
export function isControllerEnabled(
  name: string,
  disabledByDefault: ReadonlySet<string>,
  controllers: readonly string[],
): boolean {
  let star = false;
  for (const entry of controllers) {
    if (entry === name) return true;
    if (entry === `-${name}`) return false;
    if (entry === '*') star = true;
  }
  return star && !disabledByDefault.has(name);
}
