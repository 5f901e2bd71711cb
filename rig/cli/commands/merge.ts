/**
 * `rig merge OUT DIR...`: merges the results of a campaign's shards (each DIR a folder one
 * `rig campaign --shard I/N` wrote) into OUT/results.json, OUT/cycles.jsonl and OUT/junit.xml, as
 * one unsharded run would have written them, then renders the report, and exits as that run
 * would have: 0 every expectation held, 1 one did not, 3 the rig failed. The records stream from
 * file to file: no step holds them all. OUT is new, empty or an earlier run's (whose results it
 * replaces), and none of the shards. Interrupted, it stops where it is and leaves none of its
 * files: it removes OUT if it made it.
 */
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { checkAborted, runInterruptible } from '../../interrupts.js';
import { describeExercise } from '../../results/exercise-claim.js';
import { JUNIT_FILE } from '../../results/junit.js';
import { mergeResults } from '../../results/merge.js';
import { openResults } from '../../results/load-results.js';
import { CYCLES_FILE, SUMMARY_FILE, streamCycleRecords } from '../../results/results-file.js';
import { contradictedCycles, outcomeExitCode } from '../../results/summarize.js';
import type { ResultsSummary, ScenarioSummary } from '../../results/types.js';
import { pairRatios } from '../../perf/pair-ratios.js';
import { writeJunit } from '../../results/write-junit.js';
import type { ReportRenderer } from '../../results/write-results.js';
import { writeReport } from '../../../reports/write-report.js';
import { runAction } from '../run-action.js';
import { badInput } from '../../errors.js';
import { checkFreshOutFolder, clearEarlierRun, removeRunFiles } from '../../campaign/out-folder.js';

export interface MergeContext {
  renderReport?: ReportRenderer; // the HTML report: rendered from OUT after results.json is written
  print: (line: string) => void;
  signal?: AbortSignal; // interrupted: it stops, and removes its files (OUT too if it made it)
}

export async function runMerge(out: string, dirs: string[], context: MergeContext): Promise<number> {
  checkFreshOutFolder(out, 'OUT', 'the merged results');
  const shard = dirs.find((dir) => resolve(dir) === resolve(out));
  if (shard) throw badInput(`OUT ${out} is also a shard's folder; give the merged results a folder of their own`);
  const inputs = await Promise.all(dirs.map((dir) => openResults(dir)));
  const commandLine = ['rig', 'merge', out, ...dirs].join(' ');
  const { signal } = context;
  const made = !existsSync(out);
  let merged: ResultsSummary;
  let report: string | null;
  try {
    // an earlier run's results go once the shards' have all been read and checked
    merged = await mergeResults(inputs, { outDir: out, commandLine, signal, beforeReplacing: () => clearEarlierRun(out) });
    checkAborted(signal);
    await writeJunit(join(out, JUNIT_FILE), merged, () => streamCycleRecords(join(out, CYCLES_FILE)));
    checkAborted(signal);
    report = context.renderReport ? await context.renderReport(out) : null;
  } catch (error) {
    if (signal?.aborted) {
      if (made) rmSync(out, { recursive: true, force: true });
      else removeRunFiles(out);
    }
    throw error;
  }
  const junitXml = join(out, JUNIT_FILE);
  for (const line of summaryLines(merged)) context.print(line);
  context.print(`wrote ${join(out, SUMMARY_FILE)}, ${junitXml}${report ? `, ${report}` : ''}`);
  return outcomeExitCode(merged.outcome);
}

/** A perf scenario's line: its pairs and the off / on write-QPS ratio they give; it judges nothing. */
function perfLine(s: ScenarioSummary, results: ResultsSummary): string {
  const pairs = (results.perf ?? []).filter((p) => p.scenario === s.name);
  const r = pairRatios(pairs);
  const planned = s.pairsPlanned === undefined ? '' : `/${s.pairsPlanned}`;
  const failed = r.failed ? `, ${r.failed} failed` : '';
  const ratio = r.writeQps ? `doublewrite off / on write QPS ${r.writeQps.median.toFixed(2)} (${r.writeQps.min.toFixed(2)}-${r.writeQps.max.toFixed(2)})` : 'nothing measured';
  return `${s.name}: perf (${pairs.length}${planned} pairs${failed}; ${ratio})`;
}

/** One line per scenario (expectation, state, verdict counts; a perf scenario's ratio) and one for the
 * campaign: the summary alone, no record. */
export function summaryLines(results: ResultsSummary): string[] {
  const lines = results.scenarios.map((s) => {
    if (s.settings.perf) return perfLine(s, results);
    if (results.shard && s.cyclesPlanned === 0) return `${s.name}: ${s.expectation}: no cycle in shard ${results.shard.index}/${results.shard.count}`;
    const counts = Object.entries(s.verdictCounts).map(([verdict, n]) => `${verdict} ${n}`).join(', ');
    const state = s.blind ? 'BLIND' : contradictedCycles(s) > 0 ? 'FAILED' : s.vacuous ? 'VACUOUS' : s.held ? 'held' : 'rig error';
    const exercised = s.exercise ? `; ${describeExercise(s.exercise)}` : '';
    const finding = (s.findings ?? []).map((f) => `; known finding ${f.id} hit in ${f.hits} of ${f.of} (${f.doc})`).join('');
    const pageZero = s.settings.load.mix
      ? `; page 0 of an .ibd pending at the cut in ${s.pageZeroCycles ?? 0} (of a lifecycle table's in ${s.lifecyclePageZeroCycles ?? 0})`
      : '';
    return `${s.name}: ${s.expectation} ${state} (${s.cyclesRun}/${s.cyclesPlanned} cycles: ${counts || 'none'}; torn in ${s.tornCycles}${exercised}${pageZero}${finding})`;
  });
  return [...lines, `${results.campaign}: ${results.outcome} (${results.cycles.count} cycles merged)`];
}

export function register(program: Command): void {
  program
    .command('merge')
    .description("merge the results of a campaign's shards into one results.json, cycles.jsonl and junit.xml")
    .argument('<out>', 'folder for the merged results: new, empty, or an earlier run\'s (replaced)')
    .argument('<dirs...>', 'the folders the shards wrote (each holds results.json)')
    .action(
      runAction(async (out: string, dirs: string[]) =>
        runInterruptible((signal) =>
          runMerge(out, dirs, { renderReport: (dir) => writeReport(dir, undefined, { signal }), print: (line) => process.stdout.write(`${line}\n`), signal }),
        ),
      ),
    );
}
