/**
 * The guest's kernel: Debian's current linux-image-<version>-amd64 (the one the linux-image-amd64
 * meta-package names), downloaded with apt-get into the rig's kernel folder, once per version.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { rigFailure } from '../errors.js';

const DEB = /^linux-image-[0-9][^_]*-amd64_[^_]+_amd64\.deb$/;

/** The kernel package `apt-cache depends linux-image-amd64` names, or null. */
export function readKernelPackageName(aptCacheDepends: string): string | null {
  return /Depends: (linux-image-[0-9][\w.+-]*-amd64)\s*$/m.exec(aptCacheDepends)?.[1] ?? null;
}

/** The newest kernel package in `kernelDir`, or null when there is none. */
export async function findKernelDeb(kernelDir: string): Promise<string | null> {
  const names = (await readdir(kernelDir).catch(() => [] as string[])).filter((n) => DEB.test(n));
  names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return names.length ? join(kernelDir, names.at(-1)!) : null;
}

/** Downloads the current kernel package unless it is there already; removes older ones. */
export async function downloadKernel(kernelDir: string, log: (line: string) => void, signal?: AbortSignal): Promise<string> {
  const depends = await execa('apt-cache', ['depends', 'linux-image-amd64'], { reject: false, cancelSignal: signal });
  const name = readKernelPackageName(String(depends.stdout));
  if (!name) throw rigFailure('apt-cache names no linux-image-*-amd64 for linux-image-amd64: run apt-get update');
  await mkdir(kernelDir, { recursive: true });
  const existing = (await readdir(kernelDir).catch(() => [] as string[])).filter((n) => DEB.test(n));
  const mine = existing.find((n) => n.startsWith(`${name}_`));
  if (mine) return join(kernelDir, mine);
  log(`downloading ${name} (the guest's kernel)`);
  const got = await execa('apt-get', ['download', '-q', name], { cwd: kernelDir, reject: false, all: true, cancelSignal: signal });
  const deb = (await readdir(kernelDir)).find((n) => DEB.test(n) && n.startsWith(`${name}_`));
  if (got.exitCode !== 0 || !deb) {
    const last = String(got.all ?? '').trim().split('\n').pop();
    throw rigFailure(`apt-get download ${name} failed (${last || got.shortMessage})`);
  }
  for (const old of existing) await rm(join(kernelDir, old), { force: true });
  return join(kernelDir, deb);
}
