/**
 * The dm disk's trigger and hold, run by faults/helper/pfdm-watch: the kernel path has no process
 * in the I/O path to count writes as they arrive, so pfdm-watch samples, every 100 us, the block
 * layer's counters of the loop device under dm-log-writes: writes and flushes completed. "Pending"
 * is there the writes completed since the last flush: every write, not page writes alone. It
 * suspends the flakey device the moment the trigger is met; a dmsetup process would take
 * milliseconds to start, and a server that flushes at every commit has made its pending writes
 * durable by then. The exact account comes from the log at teardown.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { diskBadInput, diskFailure } from '../disk-error.js';
import type { TriggerSpec } from '../trigger.js';

/** pfdm-watch beside the FUSE helper (both built by make build). */
export function watchPath(helperPath: string): string {
  return join(dirname(helperPath), 'pfdm-watch');
}

/** What pfdm-watch says when it holds I/O. */
export interface Hold {
  reason: string;
  pendingEstimate: number;
  atMs: number; // since arming
}

export function parseHold(line: string): Hold | null {
  const m = /^cut (\S+) (\d+) (\d+)$/.exec(line);
  return m ? { reason: m[1]!, pendingEstimate: Number(m[2]), atMs: Number(m[3]) } : null;
}

/** The counters as the watcher last read them: what the trigger counts from. */
export interface Seen {
  writes: number;
  flushes: number;
  sinceFlush: number;
}

export function parseSeen(line: string): Seen | null {
  const m = /^seen writes (\d+) flushes (\d+) since-flush (\d+)$/.exec(line);
  return m ? { writes: Number(m[1]), flushes: Number(m[2]), sinceFlush: Number(m[3]) } : null;
}

export function armLine(trigger: TriggerSpec | null): string {
  if (!trigger || trigger.kind === 'manual') return 'arm none';
  if (trigger.kind === 'armed') return `arm armed ${trigger.pendingPageWrites}`;
  if (trigger.kind === 'after-writes') return `arm after-writes ${trigger.writes}`;
  return `arm at-time ${trigger.ms}`;
}

export class CutWatch {
  private readonly child: ChildProcessWithoutNullStreams;
  private replies: ((line: string) => void)[] = [];
  private held: Hold | null = null;
  private holdWaiters: { resolve: (h: Hold) => void; reject: (e: Error) => void }[] = [];
  private failure: string | null = null;

  private constructor(path: string, args: string[]) {
    this.child = spawn(path, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    this.child.stdin.on('error', () => undefined); // a watcher that died: its exit says why
    this.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // 'close', not 'exit': only then has all it wrote to stderr been read
    this.child.on('close', (code) => {
      this.failure ??= `pfdm-watch ended (exit ${code}): ${stderr.trim()}`;
      for (const r of this.replies.splice(0)) r(`error ${this.failure}`);
      for (const w of this.holdWaiters.splice(0)) w.reject(diskFailure(this.failure));
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const hold = parseHold(line);
      if (hold) {
        this.held = hold;
        for (const w of this.holdWaiters.splice(0)) w.resolve(hold);
      }
      const reply = this.replies.shift(); // a hold answers a "cut" command as well
      if (reply) reply(line);
      else if (line.startsWith('error')) {
        // the trigger fired and the hold failed: nobody asked, so whoever waits for the hold hears it
        this.failure = line.slice(6);
        for (const w of this.holdWaiters.splice(0)) w.reject(diskFailure(`the dm disk's trigger fired but could not hold I/O: ${this.failure}`));
      }
    });
  }

  /** `statFile`: the counters to watch; `trace`: the arm and the last changes seen before the hold (DIR/watch.trace). */
  static start(path: string, device: string, statFile: string, trace: string): CutWatch {
    if (!existsSync(path)) throw diskBadInput(`the dm disk's watcher ${path} is not built; run make build`);
    return new CutWatch(path, [`--device=${device}`, `--stat=${statFile}`, `--trace=${trace}`]);
  }

  private ask(line: string): Promise<string> {
    if (this.failure) return Promise.reject(diskFailure(this.failure));
    return new Promise((resolve, reject) => {
      this.replies.push((reply) => (reply.startsWith('error') ? reject(diskFailure(reply.slice(6))) : resolve(reply)));
      this.child.stdin.write(line + '\n');
    });
  }

  async arm(trigger: TriggerSpec | null): Promise<void> {
    await this.ask(armLine(trigger));
  }

  /** What the trigger counts from: the counters read now while armed (any change kept in the trace), else as the last arm found them. */
  async seen(): Promise<Seen> {
    const reply = await this.ask('seen');
    return parseSeen(reply) ?? Promise.reject(diskFailure(`pfdm-watch answered '${reply}' to seen`));
  }

  /** Holds I/O now, unless the trigger already did. */
  async cut(): Promise<Hold> {
    if (this.held) return this.held;
    const reply = await this.ask('cut');
    return parseHold(reply) ?? this.held ?? Promise.reject(diskFailure(`pfdm-watch answered '${reply}' to a cut`));
  }

  /** The hold, once there is one. */
  whenHeld(): Promise<Hold> {
    if (this.held) return Promise.resolve(this.held);
    if (this.failure) return Promise.reject(diskFailure(this.failure));
    return new Promise((resolve, reject) => this.holdWaiters.push({ resolve, reject }));
  }

  stop(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.stdin.end('quit\n');
  }
}
