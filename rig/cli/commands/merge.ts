/**
 * `rig merge OUT DIR...`: merges the results of a campaign's shards (each DIR a folder one
 * `rig campaign --shard I/N` wrote) into OUT/results.json and OUT/junit.xml, as one unsharded run
 * would have written them, and exits as that run would have: 0 every expectation held, 1 one did
 * not, 3 the rig failed.
 */
import type { Command } from 'commander';
import { describeExercise } from '../../results/exercise-claim.js';
import { mergeResults } from '../../results/merge.js';
import { loadResults } from '../../results/load-results.js';
import { contradictedCycles, outcomeExitCode } from '../../results/summarize.js';
import type { CampaignResults, ScenarioSummary } from '../../results/types.js';
import { pairRatios } from '../../perf/pair-ratios.js';
import { type ReportRenderer, writeResultsFolder } from '../../results/write-results.js';
import { writeReport } from '../../../reports/write-report.js';
import { runAction } from '../run-action.js';

export interface MergeContext {
  renderReport?: ReportRenderer; // the HTML report: rendered from OUT after results.json is written
  print: (line: string) => void;
}

export async function runMerge(out: string, dirs: string[], context: MergeContext): Promise<number> {
  const inputs = await Promise.all(dirs.map((dir) => loadResults(dir)));
  const commandLine = ['rig', 'merge', out, ...dirs].join(' ');
  const merged = mergeResults(inputs, { outDir: out, commandLine });
  const written = await writeResultsFolder(out, merged, context.renderReport);
  for (const line of summaryLines(merged)) context.print(line);
  context.print(`wrote ${written.resultsJson}, ${written.junitXml}${written.report ? `, ${written.report}` : ''}`);
  return outcomeExitCode(merged.outcome);
}

/** A perf scenario's line: its pairs and the off / on write-QPS ratio they give; it judges nothing. */
function perfLine(s: ScenarioSummary, results: CampaignResults): string {
  const pairs = (results.perf ?? []).filter((p) => p.scenario === s.name);
  const r = pairRatios(pairs);
  const planned = s.pairsPlanned === undefined ? '' : `/${s.pairsPlanned}`;
  const failed = r.failed ? `, ${r.failed} failed` : '';
  const ratio = r.writeQps ? `doublewrite off / on write QPS ${r.writeQps.median.toFixed(2)} (${r.writeQps.min.toFixed(2)}-${r.writeQps.max.toFixed(2)})` : 'nothing measured';
  return `${s.name}: perf (${pairs.length}${planned} pairs${failed}; ${ratio})`;
}

/** One line per scenario (expectation, state, verdict counts; a perf scenario's ratio) and one for the campaign. */
export function summaryLines(results: CampaignResults): string[] {
  const lines = results.scenarios.map((s) => {
    if (s.settings.perf) return perfLine(s, results);
    const counts = Object.entries(s.verdictCounts).map(([verdict, n]) => `${verdict} ${n}`).join(', ');
    const state = s.blind ? 'BLIND' : contradictedCycles(s) > 0 ? 'FAILED' : s.vacuous ? 'VACUOUS' : s.held ? 'held' : 'rig error';
    const exercised = s.exercise ? `; ${describeExercise(s.exercise)}` : '';
    const finding = (s.findings ?? []).map((f) => `; known finding ${f.id} hit in ${f.hits} of ${f.of} (${f.doc})`).join('');
    const pageZero = s.settings.load.mix
      ? `; page 0 of an .ibd pending at the cut in ${s.pageZeroCycles ?? 0} (of a lifecycle table's in ${s.lifecyclePageZeroCycles ?? 0})`
      : '';
    return `${s.name}: ${s.expectation} ${state} (${s.cyclesRun}/${s.cyclesPlanned} cycles: ${counts || 'none'}; torn in ${s.tornCycles}${exercised}${pageZero}${finding})`;
  });
  return [...lines, `${results.campaign}: ${results.outcome} (${results.cycles.length} cycles merged)`];
}

export function register(program: Command): void {
  program
    .command('merge')
    .description("merge the results of a campaign's shards into one results.json and junit.xml")
    .argument('<out>', 'folder for the merged results')
    .argument('<dirs...>', 'the folders the shards wrote (each holds results.json)')
    .action(
      runAction(async (out: string, dirs: string[]) =>
        runMerge(out, dirs, { renderReport: (dir) => writeReport(dir), print: (line) => process.stdout.write(`${line}\n`) }),
      ),
    );
}
