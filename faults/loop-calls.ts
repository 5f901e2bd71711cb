/**
 * The calls a loop disk makes (./loop-disk.ts), through faults/helper/pfmount: attach an image to a
 * free loop device and mount it, unmount it, read a file's extents (FIEMAP). One long-lived
 * process per rig makes them all, so each costs a line each way instead of a mount, umount or
 * filefrag process (a fork, an exec and their libraries, three or four times per judged state).
 * It is started at the first call and ends when the rig does (its stdin closes); one that hangs
 * past a call's bound is killed, and the next call starts another.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { diskBadInput, diskFailure } from './disk-error.js';
import { diskEnvironmentFromEnv } from './disk-environment.js';

/** A file's extent as FIEMAP gives it, bytes. */
export interface Extent {
  logical: number;
  physical: number;
  length: number;
  flags: number; // the kernel's fe_flags
}

export const FIEMAP_EXTENT_UNWRITTEN = 0x800;
/** Extents with no fixed place on the device: unknown, delayed allocation, encoded, inline data. */
export const FIEMAP_EXTENT_UNPLACED = 0x2 | 0x4 | 0x8 | 0x200;

const CALL_TIMEOUT_MS = 30_000;

interface Pending {
  line: string;
  resolve: (lines: string[]) => void;
  reject: (error: Error) => void;
  lines: string[] | null; // the extents' lines, once "ok N" said how many
  expect: number;
}

class LoopCalls {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: Pending[] = [];
  private ended: string | null = null;

  constructor(path: string) {
    this.child = spawn(path, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.holdRig(false); // idle, it does not keep the rig alive; its stdin closes when the rig ends
    let stderr = '';
    this.child.stdin.on('error', () => undefined); // its end says why
    this.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    this.child.on('error', (error) => this.end(`pfmount could not run: ${error.message}`));
    this.child.on('close', (code, signal) => this.end(`pfmount ended (${signal ?? `exit ${code}`})${stderr.trim() ? `: ${stderr.trim()}` : ''}`));
    createInterface({ input: this.child.stdout }).on('line', (line) => this.onLine(line));
  }

  /** A call under way keeps the rig alive until it is answered; an idle helper does not. */
  private holdRig(on: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as Array<{ ref?: () => void; unref?: () => void }>) {
      if (on) handle.ref?.();
      else handle.unref?.();
    }
  }

  private onLine(line: string): void {
    const head = this.pending[0];
    if (!head) return;
    if (head.lines) {
      head.lines.push(line);
    } else if (line.startsWith('error ')) {
      this.pending.shift();
      if (!this.pending.length) this.holdRig(false);
      head.reject(diskFailure(line.slice(6)));
      return;
    } else {
      const count = /^ok (\d+)$/.exec(line);
      head.lines = [line];
      head.expect = head.line.startsWith('extents\t') && count ? Number(count[1]) + 1 : 1;
    }
    if (head.lines.length === head.expect) {
      this.pending.shift();
      if (!this.pending.length) this.holdRig(false);
      head.resolve(head.lines);
    }
  }

  private end(why: string): void {
    this.ended ??= why;
    for (const p of this.pending.splice(0)) p.reject(diskFailure(why));
    if (calls.get(this.path) === this) calls.delete(this.path);
  }

  get path(): string {
    return this.child.spawnfile;
  }

  call(fields: string[]): Promise<string[]> {
    if (this.ended) return Promise.reject(diskFailure(this.ended));
    if (fields.some((f) => /[\t\n]/.test(f))) return Promise.reject(diskBadInput(`a path with a tab or a newline cannot be passed to pfmount: ${fields.join(' ')}`));
    const line = fields.join('\t');
    return new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        this.end(`pfmount did not answer '${fields.join(' ')}' within ${CALL_TIMEOUT_MS / 1000} s`);
      }, CALL_TIMEOUT_MS);
      timer.unref();
      const done = <T>(f: (v: T) => void) => (v: T) => {
        clearTimeout(timer);
        f(v);
      };
      if (!this.pending.length) this.holdRig(true);
      this.pending.push({ line, resolve: done(resolve), reject: done(reject), lines: null, expect: 1 });
      this.child.stdin.write(line + '\n');
    });
  }
}

const calls = new Map<string, LoopCalls>();

/** pfmount beside the disk's helper (both built by make build). */
export function loopCallsPath(helperPath = diskEnvironmentFromEnv().helperPath): string {
  return join(dirname(helperPath), 'pfmount');
}

function loopCalls(path: string): LoopCalls {
  let c = calls.get(path);
  if (!c) {
    if (!existsSync(path)) throw diskBadInput(`${path} is not built; run make build`);
    c = new LoopCalls(path);
    calls.set(path, c);
  }
  return c;
}

/**
 * Attaches `image` to a free loop device that lets go of it at the unmount, and mounts it at `mnt`
 * with the filesystem's options `data` (as mount -o takes them); the device.
 */
export async function mountLoop(image: string, mnt: string, fstype: string, data: string | null, path = loopCallsPath()): Promise<string> {
  const [ok] = await loopCalls(path).call(['mount', image, mnt, fstype, ...(data ? [data] : [])]);
  return ok!.slice(3);
}

export async function unmount(mnt: string, path = loopCallsPath()): Promise<void> {
  await loopCalls(path).call(['umount', mnt]);
}

/**
 * Every extent FIEMAP gives for the file, in file order; with `sync`, once the kernel has written
 * out the file's dirty pages, so that no extent is called unwritten while its pages hold data.
 */
export async function fileExtents(file: string, path = loopCallsPath(), sync = false): Promise<Extent[]> {
  const [, ...lines] = await loopCalls(path).call(['extents', file, ...(sync ? ['sync'] : [])]);
  return lines.map((l) => {
    const [logical, physical, length, flags] = l.split(' ');
    return { logical: Number(logical), physical: Number(physical), length: Number(length), flags: parseInt(flags!, 16) };
  });
}
