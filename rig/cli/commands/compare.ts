/**
 * `rig compare OLD NEW`: what changed from one campaign run to a later one (rig/history/), printed
 * with the changes first; exit 0 when nothing moved, 1 when something did, so a CI step can act on
 * it. --json prints the comparison as JSON instead.
 */
import type { Command } from 'commander';
import { compareRuns } from '../../history/compare-runs.js';
import { comparisonLines } from '../../history/comparison-lines.js';
import { runFigures } from '../../history/run-figures.js';
import { loadResults } from '../../results/load-results.js';
import { runAction } from '../run-action.js';

export function register(program: Command): void {
  program
    .command('compare')
    .description('what changed from an earlier campaign run to a later one: exit 0 nothing moved, 1 something did')
    .argument('<old>', 'the earlier run: a campaign output folder holding results.json')
    .argument('<new>', 'the later run')
    .option('--json', 'print the comparison as JSON')
    .action(runAction(async (oldDir: string, newDir: string, options: { json?: boolean }) => {
      const [before, after] = await Promise.all([loadResults(oldDir), loadResults(newDir)]);
      const comparison = compareRuns(runFigures(before.results), runFigures(after.results));
      const text = options.json ? JSON.stringify(comparison, null, 2) : comparisonLines(comparison).join('\n');
      process.stdout.write(`${text}\n`);
      return comparison.changes.length ? 1 : 0;
    }));
}
