/**
 * `rig shrink CYCLE_DIR [--out DIR] [--max-trials N]`: the smallest crash that still breaks the
 * server the same way (rig/shrink/shrink-cut.ts), from a live cycle or an explore state that
 * contradicted its expectation (or, in a negative control, where the server did not recover),
 * written as a cycle folder `rig repro` rebuilds. Progress on
 * stderr; Ctrl-C stops the search, keeps the smallest failing plan found so far in DIR, and
 * leaves nothing mounted or running. Exit 0 when shrunk, 1 when the failure did not come back,
 * 2 on bad input, 3 on a rig failure.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contextFromEnv } from '../../context.js';
import { loadCycleRecord } from '../../repro/repro.js';
import { badInput } from '../../errors.js';
import { checkFolderPath } from '../../folder-path.js';
import { stateAsCut } from '../../explore/barrier-cut.js';
import { runInterruptible } from '../../interrupts.js';
import type { CycleRecord } from '../../results/types.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { serverIdentity } from '../../results/server-identity.js';
import { sweepLeftovers } from '../../cleanup/sweep-leftovers.js';
import { describeFailure, failureOf } from '../../findings/failure-signature.js';
import { shrinkCut } from '../../shrink/shrink-cut.js';
import { writeShrunkFolder } from '../../shrink/shrunk-folder.js';
import { runAction } from '../run-action.js';

const DEFAULT_MAX_TRIALS = 200;

/** Bad input before anything is made: no record, no failure, no evidence, an --out in the way. */
function checkInput(cycleDir: string, out: string, maxTrials: number): CycleRecord {
  const record = loadCycleRecord(cycleDir);
  if (record.verdict === 'rig-error') throw badInput(`${cycleDir} is a rig error (${record.error ?? record.reason}), not a failure of the server's: nothing to shrink`);
  if (!failureOf(record)) throw badInput(`${cycleDir} held its expectation (${record.expectation}: ${record.verdict}): nothing to shrink; name a cycle that contradicted it`);
  const evidence = record.explore ? ['plan.json'] : ['cut/image.img', 'cut/journal.bin', 'cut/plan.json'];
  const missing = evidence.find((f) => !existsSync(join(cycleDir, f)));
  if (missing) throw badInput(`${cycleDir} kept no evidence (${missing} is missing): its crash image cannot be rebuilt, so it cannot be shrunk`);
  checkFolderPath('--out', out, 'the shrunk cycle');
  if (existsSync(out) && readdirSync(out).length > 0) throw badInput(`--out ${out} exists and is not empty; name a new folder`);
  if (!(maxTrials >= 3)) throw badInput(`--max-trials must be a whole number of at least 3 (two confirm the failure, one tries the smallest state)`);
  return record;
}

async function shrink(dirArg: string, opts: { out?: string; maxTrials?: string }): Promise<number> {
  const cycleDir = resolve(dirArg);
  const out = resolve(opts.out ?? join(cycleDir, 'shrunk'));
  const maxTrials = opts.maxTrials === undefined ? DEFAULT_MAX_TRIALS : /^\d+$/.test(opts.maxTrials) ? Number(opts.maxTrials) : NaN;
  const record = checkInput(cycleDir, out, maxTrials);
  const context = contextFromEnv();
  const say = (line: string) => process.stderr.write(`rig shrink: ${line}\n`);
  return runInterruptible(async (signal) => {
    await sweepLeftovers({ context });
    const work = join(out, '.shrink');
    const runtime = await createRuntime(record.settings, context, signal);
    try {
      mkdirSync(work, { recursive: true });
      const source = record.explore ? await stateAsCut(cycleDir, record, join(work, 'state')) : cycleDir;
      const { server, version } = await runtime.describe();
      say(`${record.id}: ${record.verdict}, ${record.pendingWrites.filter((w) => w.fate !== 'landed').length} writes not landed, ${record.tornPagesBefore.length} torn pages; server ${server} ${version}`);
      const outcome = await shrinkCut({
        cycleDir: source, settings: record.settings, runtime, flavor: serverIdentity(`${server} ${version}`).flavor,
        workDir: join(work, 'trials'), maxTrials, signal, onProgress: say,
      });
      if (outcome.kind === 'not-reproduced') {
        say(`not reproduced: the cut's own plan judged twice gave ${outcome.confirmations.join(' and ')}${outcome.failure ? `, not ${describeFailure(outcome.failure)} both times` : ''}; nothing shrunk (${outcome.trials} trials, ${(outcome.ms / 1000).toFixed(0)} s)`);
        rmSync(out, { recursive: true, force: true });
        return 1;
      }
      const shrunk = await writeShrunkFolder(source, outcome, out);
      const s = shrunk.shrunk!;
      const how = s.stopped ? `stopped by ${s.stopped === 'bound' ? '--max-trials' : 'the signal'}, smallest so far` : s.minimal ? '1-minimal' : 'not shown minimal';
      process.stdout.write(`shrunk: ${s.failure}\n  writes not landed ${s.writesBefore} -> ${s.writesAfter}, torn pages ${s.tornBefore} -> ${s.tornAfter} (${how})\n` +
        `  ${s.trials} trials in ${(s.ms / 1000).toFixed(0)} s\n  folder: ${out}\n  repro: rig repro ${out}\n`);
      return 0;
    } finally {
      await runtime.close?.();
      rmSync(work, { recursive: true, force: true });
      if (!existsSync(join(out, 'cycle.json'))) rmSync(out, { recursive: true, force: true }); // nothing kept: nothing left
    }
  });
}

export function register(program: Command): void {
  program
    .command('shrink')
    .description('cut a failing crash state down to the fewest lost writes that still break the server the same way')
    .argument('<cycle-dir>', "a failing 'rig cycle --out' folder, a campaign's DIR/cycles/ID, or an explore state")
    .option('--out <dir>', 'where the shrunk cycle folder goes (default: CYCLE_DIR/shrunk)')
    .option('--max-trials <n>', `recoveries to judge at most (default: ${DEFAULT_MAX_TRIALS})`)
    .action(runAction(shrink));
}
