/**
 * An initramfs archive in the kernel's "newc" cpio format, written in memory: directories, files
 * and symlinks, each with its parents, owned by root, every time stamp 0 (the same inputs give the
 * same bytes). The kernel unpacks it into its first root filesystem.
 */
import { dirname } from 'node:path/posix';

export type CpioEntry =
  | { kind: 'dir'; path: string }
  | { kind: 'file'; path: string; data: Buffer; executable?: boolean }
  | { kind: 'symlink'; path: string; target: string };

const MODES = { dir: 0o040755, file: 0o100644, executable: 0o100755, symlink: 0o120777 };

function pad4(n: number): Buffer {
  return Buffer.alloc((4 - (n % 4)) % 4);
}

function record(ino: number, name: string, mode: number, data: Buffer): Buffer {
  const nameBytes = Buffer.from(`${name}\0`);
  // c_ino c_mode c_uid c_gid c_nlink c_mtime c_filesize c_devmajor c_devminor c_rdevmajor c_rdevminor c_namesize c_check
  const fields = [ino, mode, 0, 0, mode === MODES.dir ? 2 : 1, 0, data.length, 0, 0, 0, 0, nameBytes.length, 0];
  const header = Buffer.from('070701' + fields.map((f) => f.toString(16).padStart(8, '0')).join(''));
  return Buffer.concat([header, nameBytes, pad4(header.length + nameBytes.length), data, pad4(data.length)]);
}

function parentsOf(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); dir !== '.' && dir !== '/'; dir = dirname(dir)) out.unshift(dir);
  return out;
}

/** The archive of `entries` (paths relative, no leading slash), parents made first, then the trailer. */
export function cpioArchive(entries: CpioEntry[]): Buffer {
  const parts: Buffer[] = [];
  const made = new Set<string>();
  const add = (name: string, mode: number, data: Buffer): void => {
    if (made.has(name)) throw new Error(`cpio: ${name} is in the archive twice`);
    made.add(name);
    parts.push(record(made.size, name, mode, data));
  };
  for (const entry of entries) {
    const path = entry.path.replace(/^\/+/, '');
    for (const dir of parentsOf(path)) if (!made.has(dir)) add(dir, MODES.dir, Buffer.alloc(0));
    if (entry.kind === 'dir') {
      if (!made.has(path)) add(path, MODES.dir, Buffer.alloc(0));
    } else if (entry.kind === 'file') {
      add(path, entry.executable ? MODES.executable : MODES.file, entry.data);
    } else {
      add(path, MODES.symlink, Buffer.from(entry.target));
    }
  }
  parts.push(record(0, 'TRAILER!!!', 0, Buffer.alloc(0)));
  return Buffer.concat(parts);
}
