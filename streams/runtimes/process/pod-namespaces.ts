// Which namespace tool this host offers (bwrap, unshare or none), and the command lines that use it.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * How containers are launched:
 * - `bwrap`: Debian's bubblewrap makes the mount, PID and UTS namespaces, the bind mounts and the hostname;
 * - `unshare`: util-linux unshare makes the namespaces, a small shell inside does the mounts and hostname;
 * - `none`: plain host processes (mounts are not applied: the process sees each volume at its `hostPath`).
 * Exec into a namespaced container uses util-linux `nsenter`.
 */
export type PodNamespaces =
  | { kind: 'bwrap'; bwrap: string; nsenter: string }
  | { kind: 'unshare'; unshare: string; nsenter: string }
  | { kind: 'none'; reason: string };

export interface PodNamespacesConfig {
  /** `auto` (default) prefers bwrap, then unshare, then none; a named tool that does not work gives none. */
  namespaces?: 'auto' | 'bwrap' | 'unshare' | 'none';
  /** Search path for the tools; default the kubelet's PATH. */
  path?: string;
}

/** Finds a working namespace tool; runs each candidate once to prove it works here (root, kernel support). */
export function detectPodNamespaces(config: PodNamespacesConfig = {}): PodNamespaces {
  const wanted = config.namespaces ?? 'auto';
  if (wanted === 'none') return { kind: 'none', reason: 'namespaces are turned off' };
  if (process.getuid?.() !== 0) return { kind: 'none', reason: 'the kubelet does not run as root' };
  const search = config.path ?? process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin';
  const nsenter = which('nsenter', search);
  if (!nsenter) return { kind: 'none', reason: 'nsenter (util-linux) is not on PATH' };
  const reasons: string[] = [];
  if (wanted === 'auto' || wanted === 'bwrap') {
    const bwrap = which('bwrap', search);
    if (!bwrap) reasons.push('bwrap is not on PATH');
    else {
      const probe = spawnSync(bwrap, [...bwrapBase('kube-rx-probe'), '--', '/bin/true'], { timeout: 5000 });
      if (probe.status === 0) return { kind: 'bwrap', bwrap, nsenter };
      reasons.push(`bwrap does not work here: ${String(probe.stderr ?? probe.error).trim()}`);
    }
  }
  if (wanted === 'auto' || wanted === 'unshare') {
    const unshare = which('unshare', search);
    if (!unshare) reasons.push('unshare is not on PATH');
    else {
      const probe = spawnSync(unshare, [...UNSHARE_FLAGS, '--', '/bin/true'], { timeout: 5000 });
      if (probe.status === 0) return { kind: 'unshare', unshare, nsenter };
      reasons.push(`unshare does not work here: ${String(probe.stderr ?? probe.error).trim()}`);
    }
  }
  return { kind: 'none', reason: reasons.join('; ') };
}

function which(name: string, search: string): string | undefined {
  for (const dir of search.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

const UNSHARE_FLAGS = [
  '--mount',
  '--uts',
  '--pid',
  '--fork',
  '--kill-child',
  '--mount-proc',
  '--propagation',
  'private',
];

function bwrapBase(hostname: string): string[] {
  return [
    '--dev-bind',
    '/',
    '/',
    '--proc',
    '/proc',
    '--unshare-pid',
    '--unshare-uts',
    '--hostname',
    hostname,
    '--die-with-parent',
  ];
}

/** What a container's launch needs to know. */
export interface LaunchSpec {
  hostname: string;
  mounts: { hostPath: string; containerPath: string; readonly: boolean }[];
  workingDir: string | undefined;
  /** Whether the container's own env sets PWD (otherwise the shell's `cd` must not leak one). */
  keepPwd: boolean;
  argv: string[];
}

/**
 * The init that runs inside the namespaces, as `sh -c INIT kube-rx-init <hostname> <keepPwd> <workingDir>
 * <mountCount> (<host> <container> <ro>)... <command> <args>...`. It sets the hostname and bind mounts when
 * given, checks the command exists, reports `ok` (or the start error) on fd 3, then runs the command as its
 * child and waits for it. Like `docker run --init`, it is PID 1 so that a command with no SIGTERM handler
 * still dies on SIGTERM (PID 1 would ignore it), reaps orphans, and exits with the command's status.
 */
export const CONTAINER_INIT = `
h=$1; kp=$2; wd=$3; n=$4; shift 4
fail() { printf '%s' "$1" >&3; exit 128; }
if [ -n "$h" ]; then printf '%s' "$h" > /proc/sys/kernel/hostname || fail "cannot set hostname $h"; fi
while [ "$n" -gt 0 ]; do
  src=$1; dst=$2; ro=$3; shift 3; n=$((n - 1))
  if [ ! -e "$dst" ]; then
    if [ -d "$src" ]; then mkdir -p "$dst" 2>/dev/null || fail "cannot create mount point $dst";
    else mkdir -p "$(dirname "$dst")" 2>/dev/null && : > "$dst" 2>/dev/null || fail "cannot create mount point $dst"; fi
  fi
  mount --bind "$src" "$dst" 2>/dev/null || fail "error mounting \\"$src\\" to \\"$dst\\""
  if [ "$ro" = 1 ]; then mount -o remount,bind,ro "$dst" 2>/dev/null || fail "cannot make $dst read-only"; fi
done
if [ -n "$wd" ]; then cd "$wd" 2>/dev/null || fail "chdir to cwd (\\"$wd\\") set in config.json failed: no such file or directory"; fi
[ "$kp" = 1 ] || unset PWD OLDPWD
case "$1" in
  */*) [ -x "$1" ] && [ ! -d "$1" ] || fail "exec: \\"$1\\": stat $1: no such file or directory" ;;
  *) command -v "$1" >/dev/null 2>&1 || fail "exec: \\"$1\\": executable file not found in \\$PATH" ;;
esac
printf ok >&3
exec 3>&-
trap : TERM
"$@" &
c=$!
while :; do
  wait "$c"; rc=$?
  kill -0 "$c" 2>/dev/null || exit "$rc"
done
`;

/** The command line that runs `spec` in fresh namespaces, for `spawn(file, args)`. */
export function namespacedLaunch(
  ns: Exclude<PodNamespaces, { kind: 'none' }>,
  spec: LaunchSpec,
): { file: string; args: string[] } {
  const tail = (hostname: string, mounts: LaunchSpec['mounts']) => [
    '/bin/sh',
    '-c',
    CONTAINER_INIT,
    'kube-rx-init',
    hostname,
    spec.keepPwd ? '1' : '0',
    spec.workingDir ?? '',
    String(mounts.length),
    ...mounts.flatMap((m) => [m.hostPath, m.containerPath, m.readonly ? '1' : '0']),
    ...spec.argv,
  ];
  if (ns.kind === 'unshare') {
    return { file: ns.unshare, args: [...UNSHARE_FLAGS, '--', ...tail(spec.hostname, spec.mounts)] };
  }
  const binds = spec.mounts.flatMap((m) => [
    m.readonly ? '--ro-bind' : '--bind',
    m.hostPath,
    m.containerPath,
  ]);
  return { file: ns.bwrap, args: [...bwrapBase(spec.hostname), ...binds, '--', ...tail('', [])] };
}

/**
 * The command line that runs `argv` inside the namespaces of the process `targetPid` (a process of the
 * container), in `workingDir`, with the environment the caller passes to spawn.
 */
export function namespacedExec(
  nsenter: string,
  targetPid: number,
  workingDir: string | undefined,
  keepPwd: boolean,
  argv: string[],
): { file: string; args: string[] } {
  return {
    file: nsenter,
    args: [
      '-t',
      String(targetPid),
      '-m',
      '-u',
      '-p',
      '--',
      '/bin/sh',
      '-c',
      EXEC_INIT,
      'kube-rx-exec',
      keepPwd ? '1' : '0',
      workingDir ?? '',
      ...argv,
    ],
  };
}

const EXEC_INIT = `
kp=$1; wd=$2; shift 2
if [ -n "$wd" ]; then cd "$wd" || exit 126; fi
[ "$kp" = 1 ] || unset PWD OLDPWD
case "$1" in
  */*) [ -x "$1" ] && [ ! -d "$1" ] || { printf 'exec: "%s": stat %s: no such file or directory\\n' "$1" "$1" >&2; exit 127; } ;;
  *) command -v "$1" >/dev/null 2>&1 || { printf 'exec: "%s": executable file not found in $PATH\\n' "$1" >&2; exit 127; } ;;
esac
exec "$@"
`;
