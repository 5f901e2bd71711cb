/**
 * `rig vm setup` and `rig vm run [--memory M] [--timeout S] [--cpus N] [--dir D] -- CMD...`: the
 * kernel path's guest. `run` boots a QEMU guest (Debian kernel, device-mapper with the flakey and
 * log-writes targets, loop devices) that sees the host's root read-only and D read-write, runs CMD
 * as root in D, streams its output and exits with its exit code; 124 when the guest ran past
 * --timeout and was killed. Ctrl-C kills the guest. The guest has its own empty /tmp, /run and
 * /var/tmp: D, the prepared-image cache and the rig's own package are mounted there when they lie
 * there; CMD naming another absolute path under them is refused before the guest boots (exit 2).
 */
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { contextFromEnv } from '../../context.js';
import { badInput, rigFailure } from '../../errors.js';
import { runInterruptible } from '../../interrupts.js';
import { PACKAGE_ROOT } from '../../paths.js';
import { ensureGuest } from '../../vm/build-guest.js';
import { findQemu } from '../../vm/find-qemu.js';
import { TIMEOUT_EXIT_CODE } from '../../vm/guest-exit.js';
import { lostPathsProblem, pathsLostInGuest } from '../../vm/guest-paths.js';
import { downloadKernel } from '../../vm/kernel-package.js';
import { vmPaths } from '../../vm/paths.js';
import { runGuest } from '../../vm/run-guest.js';
import { VM_DEFAULTS, checkMemory, checkWhole } from '../../vm/run-options.js';
import { flagValue } from '../flag-value.js';
import { runAction } from '../run-action.js';
import { commandGroup } from '../command-group.js';

interface RunOptions {
  memory: string;
  timeout: string;
  cpus: string;
  dir: string;
  console?: boolean;
}

const log = (line: string): void => void process.stderr.write(`rig: ${line}\n`);

function lastLines(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}

async function run(command: string[], opts: RunOptions): Promise<number> {
  const memoryMb = flagValue('--memory', checkMemory(opts.memory));
  const timeoutS = flagValue('--timeout', checkWhole(opts.timeout, 7 * 24 * 3600, 'a number of seconds'));
  const cpus = flagValue('--cpus', checkWhole(opts.cpus, 64, 'a number of CPUs'));
  const sharedDir = resolve(opts.dir);
  if (sharedDir === '/') throw badInput('--dir: the guest sees / read-only already; share the folder CMD should write in');
  if (!statSync(sharedDir, { throwIfNoEntry: false })?.isDirectory()) throw badInput(`--dir: ${sharedDir} is not a folder; give the one CMD should run in`);
  if (command.length === 0) throw badInput('no command: write it after --, e.g. rig vm run -- dmsetup targets');
  const context = contextFromEnv();
  const cacheDir = resolve(context.cacheRoot);
  const lost = pathsLostInGuest(command, [sharedDir, cacheDir, PACKAGE_ROOT]);
  if (lost.length > 0) throw badInput(lostPathsProblem(lost));
  const qemu = findQemu();
  const paths = vmPaths(context.workDir);
  return runInterruptible(async (signal) => {
    const guest = await ensureGuest(paths, log, signal);
    const outcome = await runGuest(qemu, guest, paths, {
      argv: command, sharedDir, cacheDir, memoryMb, cpus, timeoutS, stdout: process.stdout, stderr: process.stderr, signal,
    });
    if (opts.console) process.stderr.write(outcome.console);
    const { end } = outcome;
    if (end.kind === 'exited') return end.code;
    if (end.kind === 'timed-out') {
      log(`the guest ran past --timeout ${timeoutS} s and was killed (exit ${TIMEOUT_EXIT_CODE})`);
      return TIMEOUT_EXIT_CODE;
    }
    throw rigFailure(`${end.problem}; its console ended:\n${lastLines(outcome.console, 15)}`);
  });
}

async function setup(): Promise<void> {
  findQemu();
  const paths = vmPaths(contextFromEnv().workDir);
  await runInterruptible(async (signal) => {
    await downloadKernel(paths.kernelDir, log, signal);
    const guest = await ensureGuest(paths, log, signal);
    process.stdout.write(`guest ready: ${guest.kernel} ${guest.initrd}\n`);
  });
}

export function register(program: Command): void {
  const vm = commandGroup(program, 'vm', 'the kernel path: run a command in a QEMU guest with device-mapper (dm-flakey, dm-log-writes)');
  vm.command('setup')
    .description("download Debian's kernel package and build the guest (idempotent; make vm-setup also installs qemu)")
    .action(runAction(setup));
  vm.command('run')
    .description(`boot a guest, run CMD as root in --dir, stream its output, exit with its code (${TIMEOUT_EXIT_CODE} on --timeout)`)
    .argument('<command...>', 'the command and its arguments, after --')
    .option('--memory <size>', "the guest's memory", VM_DEFAULTS.memory)
    .option('--timeout <seconds>', 'kill the guest after this long', String(VM_DEFAULTS.timeoutS))
    .option('--cpus <n>', "the guest's CPUs (host threads under TCG)", String(VM_DEFAULTS.cpus))
    .option('--dir <dir>', 'the folder shared read-write, where CMD runs', process.cwd())
    .option('--console', "print the guest's console (kernel and init messages) to stderr at the end")
    .action(runAction(run));
}
