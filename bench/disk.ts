/**
 * What the power-fail disk costs: 16 KiB random direct writes at queue depth 16, and with an
 * fsync after every write (queue depth 1), through a loop device (direct I/O) over a plain sparse
 * file and through the power-fail disk (raw device, never cut), in one run. Prints IOPS and MB/s
 * for each and the ratios (power-fail disk / plain). Target: QD16 ratio >= 0.5.
 *
 * The helper writes its image through the host's page cache (durability is modelled by its
 * journal, not by the host), while the baseline loop device writes through to the host's disk.
 * So a second baseline, a loop device without direct I/O over a plain file, is measured too: the
 * ratio against it is the cost of the mechanism itself (FUSE round trips, journaling).
 * Run from the project root as root: `make bench` or `node dist/bench/disk.js [--seconds N]`.
 */
import { closeSync, mkdtempSync, openSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { PowerFailDisk } from '../faults/power-fail-disk.js';
import { startDisk } from '../faults/start-disk.js';
import { DEFAULT_DISK } from '../rig/defaults.js';
import { commandExists } from '../faults/system.js';
import { runInterruptible, checkAborted } from '../rig/interrupts.js';
import { benchArgs } from './bench-args.js';

const SIZE = 512 * 1024 * 1024;
const SECONDS = Number(benchArgs('usage: node dist/bench/disk.js [--seconds N]', { seconds: 'count' }).values.seconds ?? '9');

interface Workload {
  name: string;
  args: string[];
}

const WORKLOADS: Workload[] = [
  { name: 'randwrite 16k QD16', args: ['--iodepth=16'] },
  { name: 'randwrite 16k + fsync, QD1', args: ['--iodepth=1', '--fsync=1'] },
];

interface Figures {
  iops: number;
  mbps: number;
}

async function ensureFio(): Promise<void> {
  if (await commandExists('fio')) return;
  process.stderr.write('fio is missing; installing it with apt-get\n');
  await execa('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'fio'], {
    env: { DEBIAN_FRONTEND: 'noninteractive' },
    stdio: 'inherit',
  });
}

async function runFio(device: string, w: Workload, signal: AbortSignal): Promise<Figures> {
  const { stdout } = await execa(
    'fio',
    [
      '--name=bench', `--filename=${device}`, '--rw=randwrite', '--bs=16k', '--direct=1',
      '--ioengine=libaio', `--runtime=${SECONDS}`, '--time_based', '--ramp_time=1', `--size=${SIZE}`,
      '--norandommap', '--randrepeat=1', '--output-format=json', ...w.args,
    ],
    { cancelSignal: signal },
  );
  const job = (JSON.parse(stdout) as { jobs: { write: { iops: number; bw_bytes: number } }[] }).jobs[0]!;
  return { iops: job.write.iops, mbps: job.write.bw_bytes / 1e6 };
}

async function attachPlainLoop(dir: string, directIo: boolean): Promise<string> {
  const file = join(dir, directIo ? 'plain-direct.img' : 'plain-buffered.img');
  closeSync(openSync(file, 'w'));
  truncateSync(file, SIZE);
  const { stdout } = await execa('losetup', ['--find', '--show', `--direct-io=${directIo ? 'on' : 'off'}`, file]);
  return stdout.trim();
}

const fmt = (x: Figures): string => `${x.iops.toFixed(0).padStart(6)} IOPS ${x.mbps.toFixed(1).padStart(6)} MB/s`;

function report(name: string, plain: Figures, buffered: Figures, pf: Figures): string {
  return [
    `${name}`,
    `  plain loop, direct I/O     ${fmt(plain)}`,
    `  plain loop, page cache     ${fmt(buffered)}`,
    `  power-fail disk            ${fmt(pf)}`,
    `  ratio pfdisk / plain       ${(pf.iops / plain.iops).toFixed(2)}   (pfdisk / page-cache loop ${(pf.iops / buffered.iops).toFixed(2)})`,
  ].join('\n');
}

async function bench(signal: AbortSignal): Promise<void> {
  await ensureFio();
  const dir = mkdtempSync(join(tmpdir(), 'rig-bench-disk-'));
  const loops: string[] = [];
  let disk: PowerFailDisk | null = null;
  try {
    const plainDev = await attachPlainLoop(dir, true);
    loops.push(plainDev);
    const bufferedDev = await attachPlainLoop(dir, false);
    loops.push(bufferedDev);
    disk = await startDisk({
      dir: join(dir, 'pf'), sizeBytes: SIZE, fs: 'none', atomicUnit: 4096, pageSize: 16384,
      trigger: { kind: 'manual' }, journalMaxBytes: 64 * 1024 * 1024, model: DEFAULT_DISK.model, signal,
    });
    for (const w of WORKLOADS) {
      checkAborted(signal);
      const plain = await runFio(plainDev, w, signal);
      const buffered = await runFio(bufferedDev, w, signal);
      const pf = await runFio(disk.target, w, signal);
      process.stdout.write(report(w.name, plain, buffered, pf) + '\n');
    }
    const s = await disk.status();
    process.stdout.write(`pfdisk saw ${s.writes} writes, ${s.flushes} flushes; never cut: ${!s.cut}\n`);
  } finally {
    if (disk) await disk.down();
    for (const dev of loops) await execa('losetup', ['-d', dev], { reject: false });
    rmSync(dir, { recursive: true, force: true });
  }
}

await runInterruptible(bench);
