/**
 * The guest, built once and kept: the kernel (uncompressed) and an initramfs with busybox,
 * dmsetup and its libraries, the kernel modules in their load order, and /init. Kept under
 * guests/<key>/, the key a digest of every input (the kernel package, the programs' bytes, the
 * module list, the init script), so a changed input builds a new guest and an unchanged one is
 * reused. Older guests are removed once the new one is in place.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execa } from 'execa';
import { badInput, rigFailure } from '../errors.js';
import { cpioArchive, type CpioEntry } from './cpio-archive.js';
import { GUEST_MODULES, moduleKey, moduleLoadOrder, readModuleDepends } from './kernel-modules.js';
import { INIT_APPLETS, guestInit } from './guest-init.js';
import { findKernelDeb } from './kernel-package.js';
import type { VmPaths } from './paths.js';
import { sharedLibrariesOf } from './shared-libraries.js';
import { uncompressedKernel } from './vmlinux.js';

/** Raise when the way a guest is built changes, so guests built the old way are rebuilt. */
const BUILD_VERSION = '1';
export const GUEST_PROGRAMS = { busybox: '/bin/busybox', dmsetup: '/usr/sbin/dmsetup' };
const SETUP_HINT = 'run `make vm-setup` (or `rig vm setup`)';

export interface GuestFiles {
  key: string;
  kernel: string;
  initrd: string;
}

/** The programs copied into the initramfs with their libraries, and the digest of all inputs. */
async function guestInputs(deb: string): Promise<{ key: string; files: string[] }> {
  const files: string[] = [];
  for (const program of Object.values(GUEST_PROGRAMS)) {
    if (!existsSync(program)) throw badInput(`${program} is missing (the guest's initramfs needs it): ${SETUP_HINT}`);
    files.push(program, ...(await sharedLibrariesOf(program)));
  }
  const hash = createHash('sha256').update(`${BUILD_VERSION}\n${basename(deb)} ${(await stat(deb)).size}\n`);
  hash.update(`${GUEST_MODULES.join(' ')}\n${INIT_APPLETS.join(' ')}\n${guestInit(GUEST_MODULES)}`);
  for (const file of [...new Set(files)]) hash.update(`${file}\n`).update(await readFile(file));
  return { key: hash.digest('hex').slice(0, 16), files: [...new Set(files)] };
}

/** The guest for the kernel package that is there, built first when it is missing or stale. */
export async function ensureGuest(paths: VmPaths, log: (line: string) => void, signal?: AbortSignal): Promise<GuestFiles> {
  const deb = await findKernelDeb(paths.kernelDir);
  if (!deb) throw badInput(`no guest kernel in ${paths.kernelDir}: ${SETUP_HINT}`);
  const { key, files } = await guestInputs(deb);
  const dir = join(paths.guestsDir, key);
  const guest = { key, kernel: join(dir, 'vmlinux'), initrd: join(dir, 'initrd.gz') };
  if (existsSync(guest.initrd)) return guest;
  log(`building the guest from ${basename(deb)} (once per kernel and set of programs)`);
  await mkdir(paths.buildDir, { recursive: true });
  const scratch = await mkdtemp(join(paths.buildDir, `${key}-`));
  try {
    const extracted = join(scratch, 'deb');
    const x = await execa('dpkg', ['-x', deb, extracted], { reject: false, all: true, cancelSignal: signal });
    if (x.exitCode !== 0) throw rigFailure(`dpkg -x ${deb} failed: ${String(x.all).trim()}`);
    const out = join(scratch, 'guest');
    await mkdir(out);
    await writeFile(join(out, 'vmlinux'), await kernelOf(extracted, signal));
    await writeFile(join(out, 'initrd.gz'), gzipSync(cpioArchive(await initramfsEntries(extracted, files))));
    await mkdir(paths.guestsDir, { recursive: true });
    await rename(out, dir).catch((error: unknown) => {
      if (!existsSync(guest.initrd)) throw error; // else another run built the same guest meanwhile
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  for (const old of await readdir(paths.guestsDir)) {
    if (old !== key) await rm(join(paths.guestsDir, old), { recursive: true, force: true });
  }
  return guest;
}

async function kernelOf(extracted: string, signal?: AbortSignal): Promise<Buffer> {
  const name = (await readdir(join(extracted, 'boot'))).find((n) => n.startsWith('vmlinuz-'));
  if (!name) throw rigFailure(`the kernel package holds no boot/vmlinuz-*`);
  const bzImage = await readFile(join(extracted, 'boot', name));
  return (await uncompressedKernel(bzImage, signal)) ?? bzImage;
}

async function initramfsEntries(extracted: string, programFiles: string[]): Promise<CpioEntry[]> {
  const modules = await modulesToLoad(extracted);
  const entries: CpioEntry[] = ['proc', 'sys', 'dev', 'tmp', 'newroot'].map((path) => ({ kind: 'dir', path }));
  entries.push({ kind: 'file', path: 'init', data: Buffer.from(guestInit(modules.map(([key]) => key))), executable: true });
  for (const file of programFiles) entries.push({ kind: 'file', path: file, data: await readFile(file), executable: true });
  for (const applet of INIT_APPLETS) entries.push({ kind: 'symlink', path: `bin/${applet}`, target: 'busybox' });
  for (const [key, file] of modules) entries.push({ kind: 'file', path: `lib/modules/${key}.ko`, data: await readFile(file) });
  return entries;
}

/** The modules the guest loads, each after its dependencies: [key, file in the package]. */
async function modulesToLoad(extracted: string): Promise<Array<[string, string]>> {
  const root = join(extracted, 'lib', 'modules');
  const files = new Map<string, string>();
  for (const rel of await readdir(root, { recursive: true })) {
    if (rel.endsWith('.ko')) files.set(moduleKey(rel), join(root, rel));
  }
  const order = moduleLoadOrder(GUEST_MODULES, (key) => {
    const file = files.get(key);
    return file ? readModuleDepends(readFileSync(file)) : null;
  });
  return order.map((key) => [key, files.get(key)!]);
}
