/**
 * `rig perf`: two settings measured against each other on the power-fail disk with a device
 * profile (16 KiB atomic writes, aligned filesystem): by default doublewrite on against off, the
 * benefit half of doublewrite off; `--compare engine` InnoDB against MyRocks, `--compare profile`
 * two profiles. sysbench oltp_write_only or oltp_read_write (`--workload`), interleaved
 * repetitions; prints the runs and the B / A ratios (`doublewrite off / on write QPS: R`), writes
 * DIR/perf.json. Exit 0 when measured, 2 on bad input (nothing created), 3 when the rig failed.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { contextFromEnv } from '../../context.js';
import { DEFAULT_PERF, DEFAULT_SEED } from '../../defaults.js';
import { badInput } from '../../errors.js';
import { runInterruptible } from '../../interrupts.js';
import { sweepLeftovers } from '../../cleanup/sweep-leftovers.js';
import { formatPerfSummary } from '../../perf/perf-summary.js';
import { oneOf } from '../../../faults/checked.js';
import { PERF_AXES, members } from '../../perf/perf-comparison.js';
import { PERF_WORKLOADS } from '../../perf/perf-workload.js';
import { missingRocksdb } from '../../runtime/rocksdb-support.js';
import { perfPlan } from '../perf-scenario.js';
import { runPerf } from '../../perf/run-perf.js';
import { writeFileAtomic } from '../../results/write-atomic.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { unsupportedSetting } from '../../runtime/server-args.js';
import { serverIdentity } from '../../results/server-identity.js';
import { PERF_FLAGS, SCENARIO_FLAGS, flagOption } from '../cycle-scenario.js';
import { runAction } from '../run-action.js';
import { checkFolderPath } from '../../folder-path.js';

/** perf's own defaults in the help text, where they differ from a cycle's. */
function perfShown(key: string): { shown?: string; help?: string } {
  const shown: Record<string, string> = { 'server.bufferPool': DEFAULT_PERF.bufferPool, 'server.flushing': DEFAULT_PERF.flushing, 'load.connections': String(DEFAULT_PERF.connections), 'load.tables': String(DEFAULT_PERF.tables), 'load.rows': String(DEFAULT_PERF.rows) };
  return key === 'load.connections' ? { shown: shown[key]!, help: 'sysbench threads' } : shown[key] ? { shown: shown[key] } : {};
}

const TAKEN = ['--engine', '--profile', '--runtime', '--image', '--buffer-pool', '--flushing', '--connections', '--tables', '--rows'];

function whole(text: string | undefined, fallback: number, flag: string, least: number): number {
  if (text === undefined) return fallback;
  if (!/^\s*\d+\s*$/.test(text) || Number(text) < least) throw badInput(`${flag}: '${text}' is not a whole number of at least ${least}; give one like ${fallback}`);
  return Number(text);
}

async function perf(o: Record<string, string | undefined>): Promise<number> {
  if (!o.out) throw badInput('--out is required: name the folder for perf.json, e.g. --out /tmp/perf');
  checkFolderPath('--out', o.out, 'perf.json');
  const out = resolve(o.out);
  if (existsSync(join(out, 'perf.json'))) throw badInput(`--out: ${out} already holds a perf.json; name a new folder or remove it`);
  const repetitions = whole(o.repetitions, DEFAULT_PERF.repetitions, '--repetitions', 1);
  const seed = whole(o.seed, DEFAULT_SEED, '--seed', 0);
  const { comparison, workload } = perfPlan(o);
  const context = contextFromEnv();
  return runInterruptible(async (signal) => {
    await sweepLeftovers({ context });
    const runtime = await createRuntime(comparison.a.settings, context, signal);
    const diskRoot = mkdtempSync(join(tmpdir(), 'rig-perf-'));
    try {
      const { server, version } = await runtime.describe();
      for (const { settings } of members(comparison)) {
        const unsupported = unsupportedSetting(settings.server, serverIdentity(version)) ?? (await missingRocksdb(settings.server, runtime, `${server} ${version}`));
        if (unsupported) throw badInput(unsupported);
      }
      const tag = (m: typeof comparison.a) => (runtime.imageTag ? { ...m, settings: { ...m.settings, image: runtime.imageTag } } : m);
      const record = await runPerf({
        comparison: { ...comparison, a: tag(comparison.a), b: tag(comparison.b) },
        workload,
        runtime,
        serverVersion: `${server} ${version}`,
        cacheRoot: context.cacheRoot,
        diskRoot,
        diskEnvironment: context.disk,
        repetitions,
        seed,
        signal,
        progress: (line) => process.stderr.write(`  ${line}\n`),
      });
      mkdirSync(out, { recursive: true });
      await writeFileAtomic(join(out, 'perf.json'), JSON.stringify(record, null, 1) + '\n');
      process.stdout.write(formatPerfSummary(record) + `\n  record: ${join(out, 'perf.json')}\n`);
      return 0;
    } finally {
      rmSync(diskRoot, { recursive: true, force: true });
      await runtime.close?.();
    }
  });
}

export function register(program: Command): void {
  const command = program
    .command('perf')
    .description('measure TPS, write (and read) QPS and p99 of two settings, A against B (16k atomic, aligned fs): doublewrite on against off, innodb against rocksdb, or two device profiles; DIR/perf.json');
  for (const f of SCENARIO_FLAGS.filter((x) => TAKEN.includes(x.flag.split(' ')[0]!))) command.addOption(flagOption({ ...f, ...perfShown(f.key) }));
  for (const f of PERF_FLAGS) command.addOption(flagOption(f));
  command
    .option('--compare <axis>', `what differs between A and B: ${oneOf(PERF_AXES)} (profile: --profile A,B)`, PERF_AXES[0])
    .option('--workload <workload>', `sysbench ${oneOf(PERF_WORKLOADS)} (oltp_write_only, oltp_read_write)`, PERF_WORKLOADS[0])
    .option('--repetitions <n>', 'interleaved pairs of runs (A, B)', String(DEFAULT_PERF.repetitions))
    .option('--seed <n>', "sysbench's random seed of the first pair (each pair adds one)", String(DEFAULT_SEED))
    .option('--out <dir>', 'folder for perf.json (required)')
    .action(runAction(perf));
}
