/**
 * The process that runs the disk's short commands (losetup, mount, umount, fusermount3, filefrag,
 * mkfs) for the rig, started once by ./run-command.ts. Linux copies a process's page tables when
 * it forks, so a spawn from the rig costs time in proportion to the rig's memory: 3 ms at 40 MB,
 * over 30 ms at the 350 MB an exploration holds, on the rig's one thread, about ten times per
 * crash state. Spawned from this small process instead, a command costs the rig one message.
 *
 * It ignores SIGINT and SIGTERM (a Ctrl-C reaches the whole process group, and the rig's cleanup
 * after it still needs its commands) and ends when the rig does: its IPC channel closes.
 */
import { spawn } from 'node:child_process';

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

if (process.send && process.argv.includes('--powercut-rig-command-runner')) {
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
  process.on('disconnect', () => process.exit(0));
  process.on('message', (request: CommandRequest) => run(request, (r) => process.send?.(r)));
}
