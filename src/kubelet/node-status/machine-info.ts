// Reads the host as the kubelet's cadvisor does: CPUs, memory from /proc/meminfo, the root dir's filesystem, OS image, ids.
import fs from 'node:fs';
import os from 'node:os';
import type { MachineInfo } from '../../../operators/kubelet/node-status-setters.ts';

function readText(path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `MemTotal` and `MemAvailable` from /proc/meminfo text, in bytes. */
export function parseMeminfo(text: string): { total?: number; available?: number } {
  const field = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+)\\s*kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : undefined;
  };
  const out: { total?: number; available?: number } = {};
  const total = field('MemTotal');
  const available = field('MemAvailable');
  if (total !== undefined) out.total = total;
  if (available !== undefined) out.available = available;
  return out;
}

/** `PRETTY_NAME` from /etc/os-release text (unquoted), as the kubelet's osImage. */
export function parseOsRelease(text: string): string | undefined {
  const m = /^PRETTY_NAME=(.*)$/m.exec(text);
  if (!m) return undefined;
  return m[1]!
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .replace(/^'(.*)'$/, '$1');
}

/** Go's GOARCH name for Node's `process.arch`. */
export function goArch(arch: string): string {
  return (
    (
      { x64: 'amd64', ia32: '386', arm: 'arm', arm64: 'arm64', ppc64: 'ppc64le', s390x: 's390x' } as Record<
        string,
        string
      >
    )[arch] ?? arch
  );
}

export interface MachineInfoOptions {
  /** The kubelet's root directory; its filesystem is the node's ephemeral storage. Default `/`. */
  rootDir?: string;
  /** Where /proc, /etc and /sys are read from (tests point it at a fixture). Default `/`. */
  hostRoot?: string;
}

/**
 * Reads the machine now: CPU count, memory total and available (/proc/meminfo, else os.totalmem /
 * os.freemem), the filesystem of `rootDir` (statfs), non-loopback addresses, OS image (/etc/os-release
 * PRETTY_NAME, else os.version()), kernel (os.release()), and machine-id, product_uuid and boot_id where
 * readable (empty otherwise).
 *
 * @param options the kubelet's root dir and where the host's files are
 * @returns the machine info
 */
export function readMachineInfo(options: MachineInfoOptions = {}): MachineInfo {
  const root = options.hostRoot ?? '/';
  const at = (p: string) => `${root.replace(/\/$/, '')}${p}`;
  const meminfo = parseMeminfo(readText(at('/proc/meminfo')) ?? '');
  let storage: { total?: number; available?: number } = {};
  try {
    const s = fs.statfsSync(options.rootDir ?? '/');
    storage = { total: s.blocks * s.bsize, available: s.bavail * s.bsize };
  } catch {
    storage = {};
  }
  const addresses: MachineInfo['addresses'] = [];
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal) continue;
      addresses.push({ address: a.address, family: a.family === 'IPv6' ? 'IPv6' : 'IPv4' });
    }
  }
  const info: MachineInfo = {
    hostname: os.hostname(),
    cpus: os.availableParallelism(),
    memoryBytes: meminfo.total ?? os.totalmem(),
    memoryAvailableBytes: meminfo.available ?? os.freemem(),
    addresses,
    operatingSystem: process.platform,
    architecture: goArch(process.arch),
    kernelVersion: os.release(),
    osImage: parseOsRelease(readText(at('/etc/os-release')) ?? '') ?? os.version(),
    machineID: (readText(at('/etc/machine-id')) ?? readText(at('/var/lib/dbus/machine-id')) ?? '').trim(),
    systemUUID: (readText(at('/sys/class/dmi/id/product_uuid')) ?? '').trim(),
    bootID: (readText(at('/proc/sys/kernel/random/boot_id')) ?? '').trim(),
  };
  if (storage.total !== undefined) info.ephemeralStorageBytes = storage.total;
  if (storage.available !== undefined) info.ephemeralStorageAvailableBytes = storage.available;
  return info;
}
