/**
 * Runs a short command (losetup, mount, umount, fusermount3, filefrag, mkfs) through the command
 * runner (./command-runner.ts), so that the rig's own memory does not make each spawn slow; where
 * the runner cannot be started, through execa as before. The result has execa's shape with
 * `reject: false`: an exit code (absent when a signal ended the command or it did not start),
 * stdout and stderr without their final newline.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { CommandReply, CommandRequest } from './command-runner.js';

export interface CommandResult {
  exitCode?: number;
  signal?: string;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

interface Runner {
  child: ChildProcess;
  pending: Map<number, (r: CommandReply) => void>;
  next: number;
}

let runner: Runner | null = null;

function startRunner(): Runner | null {
  try {
    const child = fork(fileURLToPath(new URL('./command-runner.js', import.meta.url)), ['--powercut-rig-command-runner'], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: [],
    });
    const started: Runner = { child, pending: new Map(), next: 1 };
    child.on('message', (r: CommandReply) => {
      const resolve = started.pending.get(r.id);
      started.pending.delete(r.id);
      resolve?.(r);
      if (started.pending.size === 0) child.channel?.unref();
    });
    const gone = () => {
      if (runner === started) runner = null;
      for (const [id, resolve] of started.pending) resolve({ id, stdout: '', stderr: 'the command runner ended before the command did', timedOut: false });
      started.pending.clear();
    };
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

export async function runCommand(file: string, args: string[], opts: { timeoutMs?: number } = {}): Promise<CommandResult> {
  runner ??= startRunner();
  const r = runner;
  if (!r?.child.connected) return viaExeca(file, args, opts);
  const id = r.next++;
  const request: CommandRequest = { id, file, args, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) };
  const reply = new Promise<CommandReply>((resolve) => r.pending.set(id, resolve));
  r.child.channel?.ref(); // a command in flight keeps the rig alive until it answers
  try {
    r.child.send(request);
  } catch {
    r.pending.delete(id);
    return viaExeca(file, args, opts);
  }
  const { id: _id, ...result } = await reply;
  return result;
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
