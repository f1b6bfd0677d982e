// resolveControllersFlag: `--controllers` checked against the known names, aliases translated to canonical names.
import { InvalidConfigError } from '../errors.ts';

/** The names `--controllers` may use: canonical names, and each alias with the name it stands for. */
export interface KnownControllerNames {
  readonly names: ReadonlySet<string>;
  readonly aliases: ReadonlyMap<string, string>;
  /** The names kube-rx can start; a known name outside it may be disabled (`-name`) but not named to run. */
  readonly built?: ReadonlySet<string>;
}

/**
 * Validates and normalises `--controllers` as kube-controller-manager does: `*` stays, every other entry
 * (a leading `-` removed) must be a known name or alias, and aliases become their canonical names (the
 * `-` kept). Blank entries are dropped. An entry that asks for a controller kube-rx does not build yet is
 * refused by name (under `*` such controllers are skipped instead).
 *
 * @example
 * resolveControllersFlag(['*', '-job'], known); // ['*', '-job-controller']
 * @param controllers the flag's entries
 * @param known canonical names and aliases
 * @returns the entries with canonical names
 * @throws InvalidConfigError naming `--controllers` and every unknown entry (`"foo" is not in the list of
 *   known controllers`) or unbuilt one (`"daemonset-controller" is not built in kube-rx yet`)
 */
export function resolveControllersFlag(
  controllers: readonly string[],
  known: KnownControllerNames,
): string[] {
  const unknown: string[] = [];
  const out: string[] = [];
  for (const raw of controllers) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry === '*') {
      out.push(entry);
      continue;
    }
    const negated = entry.startsWith('-');
    const bare = negated ? entry.slice(1) : entry;
    const name = known.names.has(bare) ? bare : known.aliases.get(bare);
    if (name === undefined) {
      unknown.push(`${JSON.stringify(bare)} is not in the list of known controllers`);
      continue;
    }
    if (!negated && known.built && !known.built.has(name)) {
      unknown.push(`${JSON.stringify(name)} is not built in kube-rx yet`);
      continue;
    }
    out.push(negated ? `-${name}` : name);
  }
  if (unknown.length > 0) throw new InvalidConfigError('--controllers', unknown.join(', '));
  return out;
}
