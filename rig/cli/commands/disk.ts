/**
 * `rig disk up|cut|status|down`: the power-fail disk on its own, for anyone who wants their own
 * program on it, and for repro by hand.
 */
import { checkRunFolder } from '../../folder-path.js';
import { folderState, writtenSince } from '../../folder-state.js';
import { Command, Option } from 'commander';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DEFAULT_DISK, DEFAULT_SEED, DEFAULT_SERVER } from '../../defaults.js';
import { badInput } from '../../errors.js';
import { checkAborted, runInterruptible } from '../../interrupts.js';
import { flagValue } from '../flag-value.js';
import { runAction, type SettingFlags } from '../run-action.js';
import { commandGroup } from '../command-group.js';
import { buildCrashImage } from '../../../faults/crash-image.js';
import { DISK_BACKENDS, readRecord, type DiskBackend } from '../../../faults/disk-record.js';
import { openDisk } from '../../../faults/open-disk.js';
import { tearDownDisk } from '../../../faults/teardown.js';
import { contextFromEnv } from '../../context.js';
import { diskSizeProblem, FS_KINDS, isFsKind } from '../../../faults/filesystems.js';
import type { HelperStatus } from '../../../faults/helper-status.js';
import type { PowerFailDisk } from '../../../faults/power-fail-disk.js';
import { startDisk } from '../../../faults/start-disk.js';
import { checkAtomicUnit, checkSize, showSize } from '../../../faults/sizes.js';
import { mountsAtOrBelow, processAlive } from '../../../faults/system.js';
import { checkTrigger, formatTrigger } from '../../../faults/trigger.js';
import { readDeviceProfile, shippedProfileNames } from '../../../faults/device-profile.js';
import { runSelftest } from '../../../faults/selftest/model-check.js';

/** The disk's settings by the flags that set them, for its errors. */
const DISK_FLAGS: SettingFlags = {
  dir: '--dir', sizeBytes: '--size', fs: '--fs', atomicUnit: '--atomic', pageSize: '--page-size',
  journalMaxBytes: '--cache-bound', trigger: '--trigger',
};

interface UpOptions {
  dir: string;
  size: string;
  fs: string;
  atomic: string;
  trigger?: string;
  backend: DiskBackend;
  pageSize: string;
  cacheBound: string;
  profile: string;
  ownerPid?: string;
}

function parseOwnerPid(text: string | undefined): number | null {
  if (text === undefined) return null;
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid < 1 || !processAlive(pid)) {
    throw badInput(`--owner-pid: '${text}' is not a running process; give the pid the disk should live and die with`);
  }
  return pid;
}

async function up(opts: UpOptions): Promise<number> {
  // the disk replaces its image, journal and logs in the folder: never someone else's files
  checkRunFolder(opts.dir, { flag: '--dir', holds: 'the disk', marker: 'disk.json', none: 'power-fail disk', earlier: "an earlier disk's folder" });
  if (!isFsKind(opts.fs)) throw badInput(`--fs: '${opts.fs}' is not a filesystem the disk makes; use ${FS_KINDS.join(', ')}`);
  const fs = opts.fs;
  // the filesystem's own smallest disk from the first (0 and 1 are told the same size to use)
  const sizeBytes = flagValue('--size', checkSize(opts.size, 0));
  const sizeProblem = diskSizeProblem(fs, sizeBytes);
  if (sizeProblem) throw badInput(`--size: ${sizeProblem}`);
  const settings = {
    dir: resolve(opts.dir),
    sizeBytes,
    fs,
    atomicUnit: flagValue('--atomic', checkAtomicUnit(opts.atomic)),
    pageSize: flagValue('--page-size', checkSize(opts.pageSize, 1, '16k')), // any program's page, not only InnoDB's
    journalMaxBytes: flagValue('--cache-bound', checkSize(opts.cacheBound, 1, '256M')),
    trigger: flagValue('--trigger', checkTrigger(opts.trigger ?? (opts.backend === 'dm' ? 'manual' : formatTrigger(DEFAULT_DISK.trigger)), true)),
  };
  if (opts.backend === 'dm' && settings.trigger.kind !== 'manual') {
    throw badInput(`--trigger: the dm backend watches its trigger in the process that drives the load (rig cycle, rig campaign), and this one ends once the disk is up; use --trigger manual and 'rig disk cut'`);
  }
  const profile = flagValue('--profile', readDeviceProfile(opts.profile));
  const ownerPid = parseOwnerPid(opts.ownerPid);
  // interrupted, it leaves no disk and none of the files it wrote: the folder it made, or what it
  // wrote into one that was there (an earlier disk's files it did not touch stay); a failure keeps
  // them (helper.log says why)
  const before = folderState(settings.dir);
  const interrupted = async (): Promise<number> => {
    const record = readRecord(settings.dir);
    const report = record ? await tearDownDisk(record) : null; // again, if startDisk already did
    if ((report && report.problems.length > 0) || mountsAtOrBelow(settings.dir).length > 0) return 130;
    for (const name of before === null ? [''] : writtenSince(settings.dir, before)) {
      await rm(join(settings.dir, name), { recursive: true, force: true });
    }
    return 130;
  };
  return runInterruptible(async (signal) => {
    const disk = await startDisk({ ...settings, model: profile.device, signal, environment: contextFromEnv().disk, backend: opts.backend })
      .catch(async (error: unknown) => {
        if (signal.aborted) await interrupted();
        throw error;
      });
    if (signal.aborted) return interrupted();
    // this process ends now: the disk stays up for whoever asked (see rig cleanup)
    disk.setOwner(ownerPid);
    process.stdout.write(`${disk.target}\n`);
    process.stderr.write(
      `power-fail disk up (${opts.backend}): ${settings.fs} on ${disk.record.loopDevice}, atomic ${settings.atomicUnit} B, ` +
        `profile ${profile.name} (${profile.device.cache} cache), trigger ${formatTrigger(settings.trigger)}; 'rig disk down --dir ${opts.dir}' ends it\n`,
    );
    return 0;
  });
}

function liveDisk(dir: string): PowerFailDisk {
  if (dir.trim() === '') throw badInput(`--dir is empty; name the folder the disk was brought up in (rig disk up --dir)`);
  const record = readRecord(resolve(dir));
  if (!record) throw badInput(`--dir: ${dir} holds no power-fail disk; start one with 'rig disk up --dir ${dir}'`);
  // a disk.json copied from elsewhere names that disk's mounts and devices, not this folder's
  if (record.dir !== resolve(dir)) throw badInput(`--dir: ${dir}/disk.json is the record of the disk in ${record.dir}; name that folder`);
  return openDisk(record);
}

async function cut(opts: { dir: string }): Promise<void> {
  const disk = liveDisk(opts.dir);
  if (!disk.isUp()) throw badInput(`the disk in ${opts.dir} is not up (its helper is gone); 'rig disk down --dir ${opts.dir}' takes down what is left`);
  const before = await disk.status();
  const s = before.cut ? await disk.cutStatus() : await disk.cut();
  const what = before.cut ? `already cut (${s.cutReason})` : 'cut';
  process.stdout.write(`${what}: ${s.cutPending} writes pending (${s.cutPendingPageWrites} of page size or more)\n`);
}

async function status(opts: { dir: string; json?: boolean }): Promise<void> {
  const disk = liveDisk(opts.dir);
  if (!disk.isUp()) throw badInput(`the disk in ${opts.dir} is not up (its helper is gone); 'rig disk down --dir ${opts.dir}' takes down what is left`);
  const s = await disk.status();
  if (opts.json) {
    process.stdout.write(JSON.stringify(s, null, 2) + '\n');
    return;
  }
  const lines = [
    `target        ${disk.target}`,
    `cut          ${s.cut ? `yes (${s.cutReason}), ${s.cutPending} writes were pending` : 'no'}`,
    `trigger      ${s.trigger}${s.triggerN ? ' ' + s.triggerN : ''}`,
    `cache        ${s.cache}${s.cache === 'durable' ? `: ${s.completedDurable} writes durable as they completed` : ''}; ${s.inService} requests in service, ${s.queued} queued`,
    `journal      ${s.pending} writes pending, ${s.pendingPageWrites} of page size, ${s.journalBytes} bytes held`,
    `since armed  ${s.writes} writes, ${s.flushes} flushes, ${s.reads} reads`,
    `page writes  ${s.pageWrites}, ${s.pageWritesMisaligned} misaligned, ${s.pageWritesStraddling} straddling a ${s.unit}-byte unit`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

async function cutOrCutStatus(disk: PowerFailDisk): Promise<HelperStatus> {
  return (await disk.status()).cut ? disk.cutStatus() : disk.cut();
}

async function down(opts: { dir: string; seed: string }): Promise<number> {
  const disk = liveDisk(opts.dir);
  const seed = Number(opts.seed);
  if (!Number.isInteger(seed) || seed < 0) throw badInput(`--seed: '${opts.seed}' is not a whole number`);
  // Ctrl-C while it runs: the disk is still taken down whole (it was the cleanup asked for), and
  // then no crash image is built
  return runInterruptible(async (signal) => {
    // a cut whose journal dump failed is reported, but only once the disk is down
    let failedCut: unknown = null;
    if (disk.isUp()) await cutOrCutStatus(disk).catch((e: unknown) => (failedCut = e));
    const report = await disk.down();
    if (failedCut) throw failedCut;
    if (report.problems.length) throw badInput(`teardown left problems: ${report.problems.join('; ')}; run 'rig cleanup'`);
    checkAborted(signal);
    const crash = await buildCrashImage(disk.record.dir, seed, disk.record.atomicUnit);
    const torn = crash.plan.writes.filter((w) => w.fate === 'torn').length;
    process.stderr.write(
      `crash image ${crash.path} (${crash.plan.writes.length} pending writes, ${torn} torn), plan ${crash.planPath}\n`,
    );
    process.stdout.write(`${await crash.sha256}\n`);
    return 0;
  });
}

interface SelftestFlags {
  backend: DiskBackend;
  seeds: string;
  firstSeed: string;
  plans: string;
  jobs: string;
  json?: boolean;
}

function count(flag: string, text: string, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > max) throw badInput(`${flag}: '${text}' is not a count; use a whole number from 1 to ${max}`);
  return n;
}

async function selftest(o: SelftestFlags): Promise<number> {
  const seeds = count('--seeds', o.seeds, 100_000);
  const first = count('--first-seed', o.firstSeed, 1_000_000_000);
  const plans = count('--plans', o.plans, 1000);
  const jobs = count('--jobs', o.jobs, 64);
  const environment = contextFromEnv().disk;
  const model = readDeviceProfile('local');
  if (!model.ok) throw badInput(model.problem);
  return runInterruptible(async (signal) => {
    const result = await runSelftest({
      signal,
      backend: o.backend,
      seeds: Array.from({ length: seeds }, (_, i) => first + i),
      plansPerSeed: plans,
      jobs,
      model: model.value.device,
      environment,
      onSeed: (done, of, s) =>
        process.stderr.write(`[${done}/${of}] seed ${s.seed} (atomic ${showSize(s.unit)}, ${s.mix}, cut at ${s.cut === 'end' ? 'the end' : `after-writes, ${s.issued} issued`}): ` +
          `${s.pending} pending, ${s.images} crash images${s.problems.length ? `; ${s.problems.join('; ')}` : ', as the model says'}\n`),
    });
    if (o.json) process.stdout.write(JSON.stringify(result, null, 1) + '\n');
    const torn = (r: Record<number, number>, unit: number) => r[unit] ?? 0;
    (o.json ? process.stderr : process.stdout).write(
      `selftest (${result.backend}): ${result.seeds.length} seeds, ${result.images} crash images; 16 KiB writes torn: aligned ${torn(result.alignedPagesTorn, 4096)} at atomic 4k, ` +
        `${torn(result.alignedPagesTorn, 16384)} at 16k; misaligned ${torn(result.misalignedPagesTorn, 16384)} at 16k; ` +
        `${result.problems.length ? `the model FAILED: ${result.problems.slice(0, 5).join('; ')}` : 'the disk keeps its model'}\n`,
    );
    return result.problems.length ? 1 : 0;
  });
}

export function register(program: Command): void {
  const disk = commandGroup(program, 'disk', 'a power-fail disk for any program: up, cut, status, down');
  disk
    .command('up')
    .description('build the disk and print its mount point (or loop device for --fs none)')
    .requiredOption('--dir <dir>', 'work folder for the image, helper and mount')
    .option('--size <size>', 'disk size', showSize(DEFAULT_DISK.sizeBytes))
    .addOption(new Option('--fs <fs>', 'filesystem').choices(FS_KINDS).default(DEFAULT_DISK.fs))
    .option('--atomic <unit>', 'atomic write unit: 512, 4k, 8k, 16k, 32k, 64k', showSize(DEFAULT_DISK.atomicUnit))
    .option('--trigger <trigger>', `cut trigger: 'armed N', 'after-writes N', 'at-time 5s', 'manual' (default: ${formatTrigger(DEFAULT_DISK.trigger)}; manual with --backend dm)`)
    .addOption(new Option('--backend <backend>', 'where the cut happens: the FUSE helper, or the kernel\'s device-mapper (dm-log-writes + dm-flakey)').choices(DISK_BACKENDS).default('fuse'))
    .option('--page-size <size>', 'page size the armed trigger counts', showSize(DEFAULT_SERVER.pageSize))
    .option('--cache-bound <size>', 'unflushed data the disk keeps; past it the oldest writes retire as durable', showSize(DEFAULT_DISK.journalMaxBytes))
    .option('--profile <name|file>', `device profile: its write cache and timing, ${shippedProfileNames().join(', ')} (faults/profiles/) or a profile file`, DEFAULT_DISK.profile)
    .option('--owner-pid <pid>', 'tie the disk to this process: once it is gone, rig cleanup removes the disk')
    .action(runAction(up, DISK_FLAGS));
  disk.command('cut').description('cut power now').requiredOption('--dir <dir>').action(runAction(cut, DISK_FLAGS));
  disk
    .command('status')
    .description('journal size, flush count, cut state')
    .requiredOption('--dir <dir>')
    .option('--json', 'machine-readable')
    .action(runAction(status, DISK_FLAGS));
  disk
    .command('down')
    .description('cut (if not yet), tear down, write DIR/crash.img + DIR/plan.json, print its sha256')
    .requiredOption('--dir <dir>')
    .option('--seed <seed>', 'seed for the fates of pending writes', String(DEFAULT_SEED))
    .action(runAction(down, DISK_FLAGS));
  disk
    .command('selftest')
    .description('check the disk keeps its model here: seeded write programs on a raw disk, a cut, crash images checked sector by sector (exit 1 if not)')
    .addOption(new Option('--backend <backend>', 'the disk to check').choices(DISK_BACKENDS).default('fuse'))
    .option('--seeds <n>', 'how many seeded programs', '100')
    .option('--first-seed <s>', 'the first seed (a failure names its seed: --first-seed S --seeds 1 runs it again)', '1')
    .option('--plans <n>', 'crash images per program', '10')
    .option('--jobs <n>', 'seeds run at once, each on its own disk', '1')
    .option('--json', 'the whole result on stdout (the summary line goes to stderr)')
    .action(runAction(selftest, DISK_FLAGS));
}
