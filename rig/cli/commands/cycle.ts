/**
 * `rig cycle`: one crash cycle with the given settings, a short summary, DIR/cycle.json. Exit 0 when
 * the verdict is one the scenario allows, 1 on a database finding, 2 on bad input, 3 on rig-error.
 */
import { Command } from 'commander';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { parseCampaign } from '../../campaign/load-campaign.js';
import { badInput } from '../../errors.js';
import { runInterruptible } from '../../interrupts.js';
import { CACHE_ROOT } from '../../cycle/cache-root.js';
import { formatCycleSummary } from '../../cycle/cycle-summary.js';
import { runCycle } from '../../cycle/run-cycle.js';
import { DEFAULT_RECOVERY_BOUNDS } from '../../cycle/stages/recover.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { unsupportedSetting } from '../../runtime/server-args.js';
import { serverIdentity } from '../../runtime/server-identity.js';
import { sweepLeftovers } from '../../cleanup/sweep-leftovers.js';
import { runAction } from '../run-action.js';

interface CycleOptions {
  doublewrite: string;
  atomic: string;
  fs: string;
  pageSize: string;
  flushMethod: string;
  bufferPool: string;
  redoSize: string;
  trigger: string;
  size: string;
  seed: string;
  load: string;
  mix?: string;
  connections: string;
  tables: string;
  rows: string;
  maxSeconds: string;
  expect?: string;
  runtime: string;
  image?: string;
  out?: string;
  recoveryTimeout: string;
  checkTimeout: string;
}

/** The flags as a one-scenario campaign, so they are validated exactly as campaign files are. */
function scenarioFromFlags(o: CycleOptions) {
  const seed = Number(o.seed);
  if (!Number.isInteger(seed) || seed < 0) throw badInput(`--seed '${o.seed}' is not a whole number`);
  const num = (v: string, flag: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw badInput(`${flag} '${v}' is not a whole number of at least 1`);
    return n;
  };
  const doc = {
    name: 'cycle',
    scenarios: [
      {
        name: 'cycle',
        cycles: 1,
        seeds: [seed],
        runtime: o.runtime,
        ...(o.image ? { image: o.image } : {}),
        server: { doublewrite: o.doublewrite, flushMethod: o.flushMethod, pageSize: o.pageSize, bufferPool: o.bufferPool, redoSize: o.redoSize },
        disk: { atomic: o.atomic, fs: o.fs, trigger: o.trigger, size: o.size },
        load: { kind: o.load, ...(o.mix !== undefined ? { mix: o.mix } : {}), connections: num(o.connections, '--connections'), tables: num(o.tables, '--tables'), rows: num(o.rows, '--rows'), maxSeconds: num(o.maxSeconds, '--max-seconds') },
        ...(o.expect ? { expect: o.expect } : {}),
      },
    ],
  };
  const campaign = parseCampaign(stringify(doc), 'command line');
  const bounds = { startMs: num(o.recoveryTimeout, '--recovery-timeout') * 1000, checksMs: num(o.checkTimeout, '--check-timeout') * 1000 };
  return { scenario: campaign.scenarios[0]!, seed, bounds };
}

async function cycle(o: CycleOptions): Promise<number> {
  const { scenario, seed, bounds } = scenarioFromFlags(o);
  const dir = resolve(o.out ?? mkdtempSync(join(tmpdir(), 'rig-cycle-')));
  return runInterruptible(async (signal) => {
    await sweepLeftovers();
    const runtime = await createRuntime(scenario.settings, signal);
    try {
      const { server, version } = await runtime.describe();
      const unsupported = unsupportedSetting(scenario.settings.server, serverIdentity(version));
      if (unsupported) throw badInput(unsupported);
      const record = await runCycle({
        id: 'cycle',
        settings: scenario.settings,
        cycle: 1,
        seed,
        expectation: scenario.settings.expect,
        dir,
        cacheRoot: CACHE_ROOT,
        runtime,
        serverVersion: `${server} ${version}`,
        repro: `rig repro ${dir}`,
        recoveryBounds: bounds,
        signal,
        onPhase: (phase) => process.stderr.write(`  ${phase}...\n`),
      });
      process.stdout.write(formatCycleSummary(record) + `\n  record: ${join(dir, 'cycle.json')}\n`);
      if (record.verdict === 'rig-error') return 3;
      return record.expectationHeld ? 0 : 1;
    } finally {
      await runtime.close?.();
    }
  });
}

export function register(program: Command): void {
  program
    .command('cycle')
    .description('run one crash cycle and judge it')
    .option('--doublewrite <on|off|fast>', 'InnoDB doublewrite buffer (fast: MariaDB 11.x)', 'on')
    .option('--atomic <unit>', 'atomic write unit of the disk: 512, 4k, 8k, 16k, 32k, 64k', '4k')
    .option('--fs <fs>', 'ext4, ext4-bigalloc16k, xfs, xfs-su16k, xfs-bs16k', 'ext4')
    .option('--page-size <size>', 'innodb_page_size', '16k')
    .option('--flush-method <method>', 'innodb_flush_method', 'O_DIRECT')
    .option('--buffer-pool <size>', 'innodb_buffer_pool_size', '64M')
    .option('--redo-size <size>', 'innodb_log_file_size', '96M')
    .option('--trigger <trigger>', "cut trigger: 'armed N', 'after-writes N', 'at-time 5s'", 'armed 16')
    .option('--size <size>', 'disk size', '512M')
    .option('--seed <seed>', 'seed for the load and the fates of pending writes', '1')
    .option('--load <kind>', 'builtin (with ledger) or sysbench', 'builtin')
    .option('--mix <kinds>', "the builtin load's kinds of step: 'write-only,churn' (equal weights) or 'write-only=4,churn=1,alter=1,partitions=1,bulk=1' (default: write-only)")
    .option('--connections <n>', 'client connections', '4')
    .option('--tables <n>', 'sbtest tables', '4')
    .option('--rows <n>', 'rows per table', '10000')
    .option('--max-seconds <n>', 'give up (rig-error) if the cut has not come by then', '120')
    .option('--expect <expectation>', 'recovers, never-torn or torn-reproduced (default: from the settings)')
    .option('--runtime <runtime>', 'local or docker', 'local')
    .option('--image <image>', 'server image (docker runtime)')
    .option('--recovery-timeout <seconds>', 'the recovering server must answer within this (else: hung)', String(DEFAULT_RECOVERY_BOUNDS.startMs / 1000))
    .option('--check-timeout <seconds>', 'the ledger and CHECK TABLE checks must finish within this (else: hung)', String(DEFAULT_RECOVERY_BOUNDS.checksMs / 1000))
    .option('--out <dir>', 'folder for cycle.json and evidence (default: a new temp folder)')
    .action(runAction(cycle));
}
