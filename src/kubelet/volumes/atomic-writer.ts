// atomicWriter: writes a volume's files so readers see the old set or the new one, never a mix (the ..data symlink swap of upstream's AtomicWriter).
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { join, sep } from 'node:path';

/** One file of a volume's payload. */
export interface FileProjection {
  data: string | Buffer;
  /** Permission bits; default 0o644. */
  mode?: number;
}

/** What one write did. */
export interface AtomicWriteResult {
  /** False when the payload equals what is on disk (nothing touched). */
  written: boolean;
  /** The timestamped directory `..data` now points at. */
  dataDir: string;
}

const DATA_DIR = '..data';
const NEW_DATA_DIR = '..data_tmp';
const MAX_PATH_LENGTH = 4096;
const MAX_FILE_NAME_LENGTH = 255;

/**
 * Why a payload path is refused, or undefined: it may not be empty, absolute, longer than 4096
 * characters, contain a `..` element or a name longer than 255, or start with `..` (the writer's own names).
 */
export function invalidPayloadPath(path: string): string | undefined {
  if (path === '') return `invalid path: must not be empty: ${JSON.stringify(path)}`;
  if (path.startsWith('/')) return `invalid path: must be relative path: ${path}`;
  if (path.length > MAX_PATH_LENGTH)
    return `invalid path: must be less than or equal to ${MAX_PATH_LENGTH} characters`;
  const items = path.split('/');
  for (const item of items) {
    if (item === '..') return `invalid path: must not contain '..': ${path}`;
    if (item.length > MAX_FILE_NAME_LENGTH)
      return `invalid path: filenames must be less than or equal to ${MAX_FILE_NAME_LENGTH} characters`;
  }
  if ((items[0] ?? '').startsWith('..') && (items[0] ?? '').length > 2)
    return `invalid path: must not start with '..': ${path}`;
  return undefined;
}

function cleanPath(path: string): string {
  return path
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function walk(root: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(join(root, prefix), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    out.push(rel);
    if (e.isDirectory()) out.push(...(await walk(root, rel)));
  }
  return out;
}

function timestampPrefix(now: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `..${now.getUTCFullYear()}_${p(now.getUTCMonth() + 1)}_${p(now.getUTCDate())}_${p(now.getUTCHours())}_${p(now.getUTCMinutes())}_${p(now.getUTCSeconds())}.`;
}

/**
 * Writes `payload` into `targetDir` atomically, as the kubelet writes configMap, secret, downwardAPI
 * and projected volumes:
 *
 * ```
 * targetDir/token           -> ..data/token
 * targetDir/ca.crt          -> ..data/ca.crt
 * targetDir/..data          -> ..2026_11_25_00_10_24.123456   (swapped by one rename)
 * targetDir/..2026_11_25_00_10_24.123456/{token,ca.crt}
 * ```
 *
 * Steps: validate the paths; compare with the current data (nothing is written when every file and
 * mode is the same and no file goes away); write a new timestamped directory; add the user-visible
 * symlinks; point `..data_tmp` at the new directory and rename it over `..data` (the atomic step);
 * drop user-visible names no longer in the payload; remove the old directory.
 *
 * @param targetDir the volume's directory (created if missing)
 * @param payload relative path → contents and mode
 * @param now the clock for the directory's name
 * @returns whether anything was written
 * @throws Error naming the path, for a payload path that is not allowed
 */
export async function atomicWrite(
  targetDir: string,
  payload: ReadonlyMap<string, FileProjection>,
  now: () => number = Date.now,
): Promise<AtomicWriteResult> {
  const clean = new Map<string, FileProjection>();
  for (const [path, file] of payload) {
    const invalid = invalidPayloadPath(path);
    if (invalid) throw new Error(invalid);
    clean.set(cleanPath(path), file);
  }
  await mkdir(targetDir, { recursive: true });
  const dataPath = join(targetDir, DATA_DIR);
  let oldTsDir = '';
  try {
    oldTsDir = await readlink(dataPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const oldTsPath = oldTsDir ? join(targetDir, oldTsDir) : '';

  let toRemove: string[] = [];
  if (oldTsDir) {
    const current = await walk(oldTsPath);
    const wanted = new Set<string>();
    for (const path of clean.keys()) {
      const parts = path.split('/');
      for (let i = 1; i <= parts.length; i++) wanted.add(parts.slice(0, i).join('/'));
    }
    toRemove = current.filter((p) => !wanted.has(p));
    let changed = false;
    for (const [path, file] of clean) {
      const onDisk = join(oldTsPath, path);
      try {
        const [content, stat] = await Promise.all([readFile(onDisk), lstat(onDisk)]);
        const data = typeof file.data === 'string' ? Buffer.from(file.data) : file.data;
        if (!content.equals(data) || (stat.mode & 0o7777) !== (file.mode ?? 0o644)) {
          changed = true;
          break;
        }
      } catch {
        changed = true;
        break;
      }
    }
    if (!changed && toRemove.length === 0) return { written: false, dataDir: oldTsDir };
  }

  const tsDir = await mkdtemp(join(targetDir, timestampPrefix(new Date(now()))));
  await chmod(tsDir, 0o755);
  const tsName = tsDir.slice(targetDir.length + 1);
  try {
    for (const [path, file] of clean) {
      const full = join(tsDir, path);
      await mkdir(join(full, '..'), { recursive: true });
      const mode = file.mode ?? 0o644;
      await writeFile(full, file.data, { mode });
      await chmod(full, mode);
    }
    for (const path of clean.keys()) {
      const top = path.split('/')[0] as string;
      const visible = join(targetDir, top);
      if (!(await exists(visible))) await symlink(join(DATA_DIR, top), visible);
    }
    const newDataPath = join(targetDir, NEW_DATA_DIR);
    await rm(newDataPath, { force: true });
    await symlink(tsName, newDataPath);
    await rename(newDataPath, dataPath);
  } catch (error) {
    await rm(join(targetDir, NEW_DATA_DIR), { force: true });
    await rm(tsDir, { recursive: true, force: true });
    throw error;
  }
  for (const path of toRemove) {
    if (path.includes(sep) || path.includes('/')) continue;
    await unlink(join(targetDir, path)).catch(() => undefined);
  }
  if (oldTsPath) await rm(oldTsPath, { recursive: true, force: true });
  return { written: true, dataDir: tsName };
}
