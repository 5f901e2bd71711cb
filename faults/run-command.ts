/**
 * Runs a short command (losetup, mount, umount, fusermount3, mkfs) through the command
 * runner (./command-runner.ts), so that the rig's own memory does not make each spawn slow; where
 * the runner cannot be started, through execa as before. Long-lived processes start there too
 * (startProcess). The result has execa's shape with
 * `reject: false`: an exit code (absent when a signal ended the command or it did not start),
 * stdout and stderr without their final newline.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { spawnLogged, type CommandReply, type CommandRequest, type ExitNote, type StartReply, type StartRequest } from './command-runner.js';

export interface CommandResult {
  exitCode?: number;
  signal?: string;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** How a started process ended: its exit code, or the signal that ended it (both null: not known). */
export interface ProcessExit {
  exitCode: number | null;
  signal: string | null;
}

export interface StartedProcess {
  pid: number;
  exited: Promise<ProcessExit>;
}

export interface StartOptions {
  logPath: string; // stdout and stderr go to this file
  append?: boolean; // add to the log rather than write it afresh
  detached?: boolean; // a process group of its own: a Ctrl-C at the terminal does not reach it
  keepsRigAlive?: boolean; // the rig does not end while it runs (a spawned child's default)
}

interface Runner {
  child: ChildProcess;
  pending: Map<number, (r: CommandReply | StartReply) => void>;
  exits: Map<number, { resolve: (e: ProcessExit) => void; holds: boolean }>;
  /** Exits that came before their start's reply was taken up (one read of the channel can hold both). */
  early: Map<number, ProcessExit>;
  next: number;
}

let runner: Runner | null = null;

/** The runner keeps the rig alive only while a command is in flight or a process that should is running. */
function holdOrLet(r: Runner): void {
  const held = r.pending.size > 0 || [...r.exits.values()].some((e) => e.holds);
  // the runner itself too: should it die, its exit event hands the processes to watchUntilGone
  if (held) {
    r.child.ref();
    r.child.channel?.ref();
  } else {
    r.child.unref();
    r.child.channel?.unref();
  }
}

const EXIT_POLL_MS = 100;
const RUNNER_GONE = 'the command runner ended before it answered';

/** After the runner is gone, a process it started is watched by its pid until it is gone too. */
function watchUntilGone(pid: number, resolve: (e: ProcessExit) => void, holds: boolean): void {
  const timer = setInterval(() => {
    try {
      process.kill(pid, 0); // still there (the runner's end gave it to init, which reaps it)
      return;
    } catch {
      clearInterval(timer);
    }
    resolve({ exitCode: null, signal: null });
  }, EXIT_POLL_MS);
  if (!holds) timer.unref();
}

function startRunner(): Runner | null {
  try {
    const child = fork(fileURLToPath(new URL('./command-runner.js', import.meta.url)), ['--powercut-rig-command-runner'], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: [],
    });
    const started: Runner = { child, pending: new Map(), exits: new Map(), early: new Map(), next: 1 };
    child.on('message', (m: CommandReply | StartReply | ExitNote) => {
      if ('exitOf' in m) {
        const exit = { exitCode: m.exitCode, signal: m.signal };
        const waiting = started.exits.get(m.exitOf);
        started.exits.delete(m.exitOf);
        if (waiting) waiting.resolve(exit);
        else started.early.set(m.exitOf, exit);
      } else {
        const resolve = started.pending.get(m.id);
        started.pending.delete(m.id);
        resolve?.(m);
      }
      holdOrLet(started);
    });
    const gone = () => {
      if (runner === started) runner = null;
      // a command's reply or a start's: each reads the fields it knows
      for (const [id, resolve] of started.pending) resolve({ id, stdout: '', stderr: RUNNER_GONE, timedOut: false, error: RUNNER_GONE } as CommandReply & StartReply);
      started.pending.clear();
      for (const [pid, { resolve, holds }] of started.exits) watchUntilGone(pid, resolve, holds);
      started.exits.clear();
    };
    child.on('disconnect', gone); // its channel closes first: answer what it never will before the rig has nothing left to wait on
    child.on('exit', gone);
    child.on('error', gone);
    child.unref(); // the rig may end while it idles
    child.channel?.unref();
    return started;
  } catch {
    return null;
  }
}

/** The runner's pid, once started (what `ps` shows as the rig's command runner). */
export function commandRunnerPid(): number | null {
  return runner?.child.pid ?? null;
}

/** Sends a request to the runner; null when there is none to take it. */
function ask<R extends CommandReply | StartReply>(request: CommandRequest | StartRequest): Promise<R> | null {
  runner ??= startRunner();
  const r = runner;
  if (!r?.child.connected) return null;
  const reply = new Promise<R>((resolve) => r.pending.set(request.id, resolve as (m: CommandReply | StartReply) => void));
  r.child.channel?.ref(); // a request in flight keeps the rig alive until it answers
  try {
    r.child.send(request);
  } catch {
    r.pending.delete(request.id);
    holdOrLet(r);
    return null;
  }
  return reply;
}

function nextId(): number {
  runner ??= startRunner();
  return runner ? runner.next++ : 0;
}

export async function runCommand(file: string, args: string[], opts: { timeoutMs?: number } = {}): Promise<CommandResult> {
  const id = nextId();
  const reply = ask<CommandReply>({ id, file, args, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) });
  if (!reply) return viaExeca(file, args, opts);
  const { id: _id, ...result } = await reply;
  return result;
}

/**
 * Starts a long-lived process (the disk's helper, a host server) from the runner, for the same
 * reason as a short command; throws when it could not be started. Where there is no runner, the
 * rig spawns it itself.
 */
export async function startProcess(file: string, args: string[], opts: StartOptions): Promise<StartedProcess> {
  const id = nextId();
  const detached = opts.detached ?? false;
  const holds = opts.keepsRigAlive ?? true;
  const how = { logPath: opts.logPath, append: opts.append ?? false, detached };
  const reply = ask<StartReply>({ id, start: { file, args, ...how } });
  if (!reply) return spawnHere(file, args, { ...how, keepsRigAlive: holds });
  const r = runner!;
  const answer = await reply;
  if (answer.pid === undefined) throw new Error(`${file} could not be started: ${answer.error ?? 'no reason given'}`);
  const pid = answer.pid;
  const exited = new Promise<ProcessExit>((resolve) => {
    const early = r.early.get(pid);
    r.early.delete(pid);
    if (early) resolve(early);
    else if (runner === r) r.exits.set(pid, { resolve, holds });
    else watchUntilGone(pid, resolve, holds);
  });
  holdOrLet(r);
  return { pid, exited };
}

async function spawnHere(file: string, args: string[], opts: { logPath: string; append: boolean; detached: boolean; keepsRigAlive: boolean }): Promise<StartedProcess> {
  const child = spawnLogged(file, args, opts);
  const exited = new Promise<ProcessExit>((resolve) => child.on('exit', (code, signal) => resolve({ exitCode: code, signal })));
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) => reject(new Error(`${file} could not be started: ${error.message}`)));
  });
  if (!opts.keepsRigAlive) child.unref();
  return { pid: child.pid!, exited };
}

async function viaExeca(file: string, args: string[], opts: { timeoutMs?: number }): Promise<CommandResult> {
  const r = await execa(file, args, { reject: false, ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}) });
  return {
    ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
    ...(r.signal ? { signal: r.signal } : {}),
    stdout: String(r.stdout ?? ''),
    stderr: String(r.stderr ?? ''),
    timedOut: r.timedOut,
  };
}
