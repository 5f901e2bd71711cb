/**
 * One guest run: a run folder with the command script, two sockets for the command's output, qemu
 * started on the built guest, and its end read back. Besides the host's root, the shared folder,
 * the run folder and the cache, the guest gets the rig's package root when its tmpfs would hide it
 * (guest-paths.ts), and under tap a folder its node processes write their coverage to, turned
 * into tap's coverage files when the guest has ended (guest-coverage.ts). The guest is killed
 * (SIGKILL) when the run is aborted (Ctrl-C) or its timeout passes; the run folder goes on every
 * path. The folder holds the rig's owner record and qemu's pid, so `rig cleanup` can end a guest
 * whose rig process was killed.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { currentOwner, formatOwner } from '../process-owner.js';
import { rigFailure } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import type { GuestFiles } from './build-guest.js';
import { commandScript } from './command-script.js';
import { guestEnd, type GuestEnd } from './guest-exit.js';
import { collectCoverage, guestCoverage, type GuestCoverage } from './guest-coverage.js';
import { RUN_FILES } from './guest-init.js';
import { packageShare } from './guest-paths.js';
import { listenForOutput, type OutputSocket } from './output-socket.js';
import type { VmPaths } from './paths.js';
import { qemuArgs } from './qemu-args.js';
import { checkAborted } from '../interrupts.js';

export const RUN_DIR_FILES = { owner: 'owner', qemuPid: 'qemu.pid', console: 'console.log' } as const;

export interface GuestRun {
  argv: string[];
  sharedDir: string;
  /** The prepared-image cache, shared read-write (made when missing). */
  cacheDir: string;
  memoryMb: number;
  cpus: number;
  timeoutS: number;
  stdout: Writable;
  stderr: Writable;
  signal?: AbortSignal;
}

export interface GuestOutcome {
  end: GuestEnd;
  /** The guest's console (kernel and /init messages). */
  console: string;
  seconds: number;
}

export async function runGuest(qemu: string, guest: GuestFiles, paths: VmPaths, run: GuestRun): Promise<GuestOutcome> {
  await mkdir(paths.runsDir, { recursive: true });
  const runDir = await mkdtemp(join(paths.runsDir, 'run-'));
  const sockets: OutputSocket[] = [];
  let coverage: GuestCoverage | undefined;
  try {
    await writeFile(join(runDir, RUN_DIR_FILES.owner), formatOwner(currentOwner()));
    await mkdir(run.cacheDir, { recursive: true });
    coverage = guestCoverage(process.env, join(runDir, 'coverage'));
    if (coverage) await mkdir(coverage.dir, { recursive: true });
    const script = commandScript({
      argv: run.argv, cwd: run.sharedDir, path: process.env.PATH ?? '/usr/bin:/bin', cacheDir: run.cacheDir, forwardEnv: coverage?.env,
    });
    await writeFile(join(runDir, RUN_FILES.command), script);
    sockets.push(await listenForOutput(join(runDir, 'stdout.sock'), run.stdout));
    sockets.push(await listenForOutput(join(runDir, 'stderr.sock'), run.stderr));
    const args = qemuArgs({
      kernel: guest.kernel, initrd: guest.initrd, memoryMb: run.memoryMb, cpus: run.cpus,
      runDir, sharedDir: run.sharedDir, cacheDir: run.cacheDir, packageDir: packageShare(PACKAGE_ROOT, run.sharedDir, run.cacheDir),
      coverageDir: coverage?.dir, consoleLog: join(runDir, RUN_DIR_FILES.console),
      stdoutSocket: sockets[0]!.path, stderrSocket: sockets[1]!.path, pidFile: join(runDir, RUN_DIR_FILES.qemuPid),
    });
    const timeout = AbortSignal.timeout(run.timeoutS * 1000);
    const started = Date.now();
    const exit = await runQemu(qemu, args, run.signal ? AbortSignal.any([run.signal, timeout]) : timeout);
    checkAborted(run.signal);
    for (const socket of sockets) await socket.drained(5000);
    const status = await readFile(join(runDir, RUN_FILES.status), 'utf8').catch(() => null);
    const consoleText = await readFile(join(runDir, RUN_DIR_FILES.console), 'utf8').catch(() => '');
    return { end: guestEnd(status, timeout.aborted, exit), console: consoleText, seconds: (Date.now() - started) / 1000 };
  } finally {
    for (const socket of sockets) await socket.close();
    try {
      if (coverage) await collectCoverage(coverage); // from inside the run folder: before it goes
    } finally {
      await rm(runDir, { recursive: true, force: true });
    }
  }
}

/** Runs qemu to its end; `signal` kills it. Resolves with how it ended ("exit 0", "SIGKILL"). */
function runQemu(qemu: string, args: string[], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(qemu, args, { stdio: ['ignore', 'ignore', 'pipe'], signal, killSignal: 'SIGKILL' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('error', (error) => {
      // an abort kills qemu, and 'close' follows; anything else means it never ran
      if (error.name !== 'AbortError') reject(rigFailure(`${qemu} could not run: ${error.message}`, error));
    });
    child.on('close', (code, sig) => {
      if (code !== 0 && !signal.aborted) return reject(rigFailure(`${qemu} failed (exit ${code ?? sig}): ${stderr.trim()}`));
      resolve(code !== null ? `exit ${code}` : `${sig}`);
    });
  });
}
