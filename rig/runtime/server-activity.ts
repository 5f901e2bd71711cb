/**
 * What a running server is doing, read from the kernel without touching the server: its CPU time
 * (/proc/PID/stat), its read and write calls and bytes (/proc/PID/io), and the requests of the
 * block device its datadir lives on (/sys/dev/block/MAJ:MIN/stat: done, and in flight). A docker
 * server is read by its host pid the same way. Null where any of it cannot be read (no such
 * process, a datadir on no block device): a stall is then never judged (./stall-watch.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ActivitySample } from './stall-watch.js';

const USER_HZ = 100; // the unit of /proc's CPU times on Linux

/** Where to read a server's activity: its pid, and the stat file of its datadir's device. */
export interface ActivitySource {
  pid: number;
  deviceStat: string;
}

/** The stat file of the block device that holds `path`, or null where it has none. */
export function deviceStatOf(path: string): string | null {
  let dev: bigint;
  try {
    dev = statSync(path, { bigint: true }).dev;
  } catch {
    return null;
  }
  // glibc's dev_t: the major's low 12 bits at bit 8 and the rest at bit 44; the minor's low 8 bits
  // at bit 0 and the rest at bit 20
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  const stat = `/sys/dev/block/${major}:${minor}/stat`;
  return existsSync(stat) ? stat : null;
}

export function activitySource(pid: number | null, datadir: string): ActivitySource | null {
  if (pid === null) return null;
  const deviceStat = deviceStatOf(datadir);
  return deviceStat ? { pid, deviceStat } : null;
}

export function readActivity(source: ActivitySource, atMs: number): ActivitySample | null {
  try {
    const stat = readFileSync(`/proc/${source.pid}/stat`, 'utf8');
    // fields after the command name, which is in parentheses and may hold spaces
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime and stime: fields 14 and 15
    const io = ioCounters(readFileSync(`/proc/${source.pid}/io`, 'utf8'));
    const disk = readFileSync(source.deviceStat, 'utf8').trim().split(/\s+/).map(Number);
    // reads, writes, discards and flushes done; the ninth field is the requests in flight
    const done = [disk[0], disk[4], disk[11], disk[15]].map((n) => n ?? 0);
    const values = [ticks, ...io, ...done, disk[8]];
    if (values.some((n) => !Number.isFinite(n))) return null;
    return { atMs, cpuMs: (ticks * 1000) / USER_HZ, io: [...io, ...done], inFlight: disk[8]! };
  } catch {
    return null;
  }
}

const IO_KEYS = ['syscr', 'syscw', 'read_bytes', 'write_bytes'];

function ioCounters(text: string): number[] {
  const found = new Map(text.split('\n').map((line) => line.split(':').map((s) => s.trim()) as [string, string]));
  return IO_KEYS.map((key) => Number(found.get(key)));
}
