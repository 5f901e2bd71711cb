/**
 * The qemu-system-x86_64 command line for one guest: TCG (no KVM on these machines), the kernel
 * booted directly (an uncompressed vmlinux boots through PVH, skipping the in-guest decompression
 * that costs seconds under TCG), no default devices, the console to a file, the command's stdout
 * and stderr on two virtio console ports connected to the host's sockets, and the 9p shares:
 * the host's root read-only; the shared folder, the run folder and the prepared-image cache
 * read-write (a cycle in the guest uses the host's prepared images, and one it builds stays); and,
 * when given, the rig's package root read-only (the guest's tmpfs would hide it) and the coverage
 * folder read-write (tap's process tracker writes there). The kernel command line names each
 * folder for the guest's /init, which mounts it at the same path.
 */
import { PORT_NAMES, SHARE_TAGS } from './guest-init.js';

export interface GuestMachine {
  kernel: string;
  initrd: string;
  memoryMb: number;
  cpus: number;
  /** The run folder: shared with the guest, holds the command script, the console log, the sockets. */
  runDir: string;
  /** The folder shared read-write, where the command runs. */
  sharedDir: string;
  /** The prepared-image cache (RIG_CACHE), shared read-write at the same path. */
  cacheDir: string;
  /** The rig's package root, shared read-only at the same path; absent: not shared (guest-paths.ts). */
  packageDir?: string;
  /** Where the guest's node processes write coverage, shared read-write; absent: not shared (guest-coverage.ts). */
  coverageDir?: string;
  consoleLog: string;
  stdoutSocket: string;
  stderrSocket: string;
  pidFile: string;
}

function share(tag: string, path: string, readonly: boolean): string[] {
  // multidevs=remap: the host's root spans several filesystems; without it inode numbers can collide
  const opts = [`local`, `path=${path}`, `mount_tag=${tag}`, 'security_model=none', 'multidevs=remap'];
  if (readonly) opts.push('readonly=on');
  return ['-virtfs', opts.join(',')];
}

function port(id: string, socket: string, name: string): string[] {
  return ['-chardev', `socket,id=${id},path=${socket}`, '-device', `virtserialport,chardev=${id},name=${name}`];
}

export function qemuArgs(m: GuestMachine): string[] {
  const optional: Array<[string | undefined, string, boolean]> = [[m.packageDir, SHARE_TAGS.pkg, true], [m.coverageDir, SHARE_TAGS.cov, false]];
  const given = optional.filter((o): o is [string, string, boolean] => o[0] !== undefined);
  for (const path of [m.runDir, m.sharedDir, m.cacheDir, ...given.map(([path]) => path)]) {
    // qemu splits options at commas; the kernel command line at spaces
    if (/[,\s]/.test(path)) throw new Error(`a folder shared with the guest cannot hold a comma or white space: ${path}`);
  }
  return [
    '-accel', 'tcg,thread=multi',
    '-cpu', 'max',
    '-m', String(m.memoryMb),
    '-smp', String(m.cpus),
    '-nodefaults', '-no-user-config', '-display', 'none', '-no-reboot',
    '-kernel', m.kernel,
    '-initrd', m.initrd,
    '-append', `console=ttyS0 panic=-1 quiet rig.run=${m.runDir} rig.dir=${m.sharedDir} rig.cache=${m.cacheDir}${given.map(([path, tag]) => ` ${tag}=${path}`).join('')}`,
    '-serial', `file:${m.consoleLog}`,
    '-pidfile', m.pidFile,
    ...share(SHARE_TAGS.root, '/', true),
    ...share(SHARE_TAGS.dir, m.sharedDir, false),
    ...share(SHARE_TAGS.run, m.runDir, false),
    ...share(SHARE_TAGS.cache, m.cacheDir, false),
    ...given.flatMap(([path, tag, readonly]) => share(tag, path, readonly)),
    '-device', 'virtio-serial-pci',
    ...port('out', m.stdoutSocket, PORT_NAMES.stdout),
    ...port('err', m.stderrSocket, PORT_NAMES.stderr),
  ];
}
