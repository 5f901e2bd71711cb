/**
 * The process that runs the disk's short commands (losetup, mount, umount, fusermount3,
 * mkfs) for the rig, started once by ./run-command.ts, and starts its long-lived ones (the disk's
 * helper, a host server), which it reports the exit of. Linux copies a process's page tables when
 * it forks, so a spawn from the rig costs time in proportion to the rig's memory: 3 ms at 40 MB,
 * over 30 ms at the 350 MB an exploration holds, on the rig's one thread, about ten times per
 * crash state. Spawned from this small process instead, a command costs the rig one message.
 *
 * It ignores SIGINT and SIGTERM (a Ctrl-C reaches the whole process group, and the rig's cleanup
 * after it still needs its commands) and ends when the rig does: its IPC channel closes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

export interface CommandRequest {
  id: number;
  file: string;
  args: string[];
  timeoutMs?: number;
}

export interface CommandReply {
  id: number;
  exitCode?: number; // absent when a signal ended it or it did not start
  signal?: string;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** A long-lived process to start with its output appended to (or written over) a log file. */
export interface StartRequest {
  id: number;
  start: { file: string; args: string[]; logPath: string; append: boolean; detached: boolean };
}

/** Its pid once it runs, or why it did not start. */
export interface StartReply {
  id: number;
  pid?: number;
  error?: string;
}

/** A started process ended (sent after its StartReply). */
export interface ExitNote {
  exitOf: number;
  exitCode: number | null;
  signal: string | null;
}

const stripFinalNewline = (s: string) => s.replace(/\r?\n$/, '');

function run(request: CommandRequest, reply: (r: CommandReply) => void): void {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let timedOut = false;
  let done = false;
  const finish = (r: Omit<CommandReply, 'id' | 'stdout' | 'stderr' | 'timedOut'>, stderr?: string) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    reply({ id: request.id, ...r, stdout: stripFinalNewline(Buffer.concat(out).toString()), stderr: stderr ?? stripFinalNewline(Buffer.concat(err).toString()), timedOut });
  };
  const child = spawn(request.file, request.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = request.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        child.kill('SIGTERM');
      }, request.timeoutMs)
    : undefined;
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  child.on('error', (error) => finish({}, `${request.file}: ${error.message}`));
  child.on('close', (code, signal) => finish({ ...(code !== null ? { exitCode: code } : {}), ...(signal ? { signal } : {}) }));
}

/** Spawns a long-lived process with stdout and stderr in the log file (throws when the log cannot be opened). */
export function spawnLogged(file: string, args: string[], opts: { logPath: string; append: boolean; detached: boolean }): ChildProcess {
  const log = openSync(opts.logPath, opts.append ? 'a' : 'w');
  try {
    return spawn(file, args, { detached: opts.detached, stdio: ['ignore', log, log] });
  } finally {
    closeSync(log);
  }
}

function start(request: StartRequest, send: (m: StartReply | ExitNote) => void): void {
  const { file, args, ...opts } = request.start;
  let child: ChildProcess;
  try {
    child = spawnLogged(file, args, opts);
  } catch (error) {
    send({ id: request.id, error: (error as Error).message });
    return;
  }
  child.on('spawn', () => send({ id: request.id, pid: child.pid! }));
  child.on('error', (error) => {
    if (child.pid === undefined) send({ id: request.id, error: `${file}: ${error.message}` });
  });
  child.on('exit', (code, signal) => {
    if (child.pid !== undefined) send({ exitOf: child.pid, exitCode: code, signal });
  });
}

if (process.send && process.argv.includes('--powercut-rig-command-runner')) {
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
  process.on('disconnect', () => process.exit(0));
  process.on('message', (request: CommandRequest | StartRequest) => {
    if ('start' in request) start(request, (m) => process.send?.(m));
    else run(request, (r) => process.send?.(r));
  });
}
