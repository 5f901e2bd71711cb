/**
 * `rig cycle`: one crash cycle with the given settings, a short summary, DIR/cycle.json. Exit 0 when
 * the verdict is one the scenario allows, 1 on a database finding, 2 on bad input, 3 on rig-error.
 */
import type { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { contextFromEnv } from '../../context.js';
import { badInput } from '../../errors.js';
import { runInterruptible } from '../../interrupts.js';
import { formatCycleSummary } from '../../cycle/cycle-summary.js';
import { runCycle } from '../../cycle/run-cycle.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { unsupportedSetting } from '../../runtime/server-args.js';
import { missingRocksdb } from '../../runtime/rocksdb-support.js';
import { serverIdentity } from '../../results/server-identity.js';
import { sweepLeftovers } from '../../cleanup/sweep-leftovers.js';
import { CYCLE_FLAGS, SCENARIO_FLAGS, flagOption, scenarioFromFlags } from '../cycle-scenario.js';
import { runAction } from '../run-action.js';
import { checkRunFolder } from '../../folder-path.js';
import { preflightBackends } from '../preflight-backends.js';

async function cycle(o: Record<string, string | undefined>): Promise<number> {
  const { scenario, seed, bounds } = scenarioFromFlags(o);
  // new, empty, or an earlier cycle's: a cycle writes its evidence over nothing of anyone else's
  if (o.out !== undefined) checkRunFolder(o.out, { flag: '--out', holds: 'cycle.json and the evidence', marker: 'cycle.json', none: 'cycle', earlier: "an earlier cycle's folder" });
  await preflightBackends([scenario.settings], contextFromEnv().disk);
  const dir = resolve(o.out ?? mkdtempSync(join(tmpdir(), 'rig-cycle-')));
  const context = contextFromEnv();
  return runInterruptible(async (signal) => {
    await sweepLeftovers({ context });
    const runtime = await createRuntime(scenario.settings, context, signal);
    // the record names the image the cycle ran, chosen or not, so rig repro runs it again
    const settings = runtime.imageTag ? { ...scenario.settings, image: runtime.imageTag } : scenario.settings;
    try {
      const { server, version } = await runtime.describe();
      const unsupported = unsupportedSetting(settings.server, serverIdentity(version));
      if (unsupported) throw badInput(unsupported);
      const noRocksdb = await missingRocksdb(settings.server, runtime, `${server} ${version}`);
      if (noRocksdb) throw badInput(noRocksdb);
      const record = await runCycle({
        id: 'cycle',
        settings,
        cycle: 1,
        seed,
        expectation: settings.expect,
        dir,
        cacheRoot: context.cacheRoot,
        diskEnvironment: context.disk,
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
      // interrupted: the temporary folder made for it holds nothing of a finished cycle
      if (signal.aborted && o.out === undefined) rmSync(dir, { recursive: true, force: true });
    }
  });
}

export function register(program: Command): void {
  const command = program.command('cycle').description('run one crash cycle and judge it');
  for (const f of [...SCENARIO_FLAGS, ...CYCLE_FLAGS]) command.addOption(flagOption(f));
  command
    .option('--out <dir>', 'folder for cycle.json and evidence: new, empty or an earlier cycle\'s (default: a new temp folder)')
    .action(runAction(cycle));
}
