// Tests of reading the host: /proc/meminfo and /etc/os-release parsing, ids from a fixture root, the root dir's filesystem.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  goArch,
  parseMeminfo,
  parseOsRelease,
  readMachineInfo,
} from '../../../../src/kubelet/node-status/machine-info.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'machine-info-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('machine info', () => {
  it('parses MemTotal and MemAvailable in bytes', () => {
    expect(
      parseMeminfo('MemTotal:       16318412 kB\nMemFree:  100 kB\nMemAvailable:    8123456 kB\n'),
    ).toEqual({
      total: 16318412 * 1024,
      available: 8123456 * 1024,
    });
    expect(parseMeminfo('')).toEqual({});
  });

  it.each([
    [
      'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"',
      'Debian GNU/Linux 12 (bookworm)',
    ],
    ["NAME=x\nPRETTY_NAME='Ubuntu 24.04 LTS'", 'Ubuntu 24.04 LTS'],
    ['PRETTY_NAME=Alpine', 'Alpine'],
    ['NAME=nothing', undefined],
  ])('osImage from os-release %#', (text, image) => {
    expect(parseOsRelease(text)).toBe(image);
  });

  it('maps Node arch names to Go ones', () => {
    expect([goArch('x64'), goArch('arm64'), goArch('riscv64')]).toEqual(['amd64', 'arm64', 'riscv64']);
  });

  it('reads ids, memory and the OS image under hostRoot, and the root dir filesystem', () => {
    mkdirSync(path.join(dir, 'proc/sys/kernel/random'), { recursive: true });
    mkdirSync(path.join(dir, 'etc'), { recursive: true });
    mkdirSync(path.join(dir, 'sys/class/dmi/id'), { recursive: true });
    writeFileSync(path.join(dir, 'proc/meminfo'), 'MemTotal: 2048 kB\nMemAvailable: 1024 kB\n');
    writeFileSync(path.join(dir, 'proc/sys/kernel/random/boot_id'), 'boot-123\n');
    writeFileSync(path.join(dir, 'etc/os-release'), 'PRETTY_NAME="Test OS 1"\n');
    writeFileSync(path.join(dir, 'etc/machine-id'), 'machine-abc\n');
    writeFileSync(path.join(dir, 'sys/class/dmi/id/product_uuid'), 'UUID-1\n');
    const info = readMachineInfo({ hostRoot: dir, rootDir: dir });
    expect(info).toMatchObject({
      memoryBytes: 2048 * 1024,
      memoryAvailableBytes: 1024 * 1024,
      bootID: 'boot-123',
      osImage: 'Test OS 1',
      machineID: 'machine-abc',
      systemUUID: 'UUID-1',
      kernelVersion: os.release(),
      cpus: os.availableParallelism(),
    });
    expect(info.ephemeralStorageBytes).toBeGreaterThan(0);
    expect(info.ephemeralStorageAvailableBytes).toBeLessThanOrEqual(info.ephemeralStorageBytes!);
    expect(info.addresses.every((a) => a.address !== '127.0.0.1')).toBe(true);
  });

  it('falls back to the OS when files are missing', () => {
    const info = readMachineInfo({ hostRoot: path.join(dir, 'nowhere') });
    expect(info.memoryBytes).toBe(os.totalmem());
    expect(info.machineID).toBe('');
    expect(info.osImage).toBe(os.version());
  });
});
