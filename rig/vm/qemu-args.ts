/**
 * The qemu-system-x86_64 command line for one guest: TCG (no KVM on these machines), the kernel
 * booted directly (an uncompressed vmlinux boots through PVH, skipping the in-guest decompression
 * that costs seconds under TCG), no default devices, the console to a file, the command's stdout
 * and stderr on two virtio console ports connected to the host's sockets, and four 9p shares:
 * the host's root read-only; the shared folder, the run folder and the prepared-image cache
 * read-write (a cycle in the guest uses the host's prepared images, and one it builds stays).
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
  for (const path of [m.runDir, m.sharedDir, m.cacheDir]) {
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
    '-append', `console=ttyS0 panic=-1 quiet rig.run=${m.runDir} rig.dir=${m.sharedDir} rig.cache=${m.cacheDir}`,
    '-serial', `file:${m.consoleLog}`,
    '-pidfile', m.pidFile,
    ...share(SHARE_TAGS.root, '/', true),
    ...share(SHARE_TAGS.dir, m.sharedDir, false),
    ...share(SHARE_TAGS.run, m.runDir, false),
    ...share(SHARE_TAGS.cache, m.cacheDir, false),
    '-device', 'virtio-serial-pci',
    ...port('out', m.stdoutSocket, PORT_NAMES.stdout),
    ...port('err', m.stderrSocket, PORT_NAMES.stderr),
  ];
}
