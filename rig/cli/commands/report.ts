/**
 * `rig report DIR [--out FILE] [--history [STORE]]`: renders a saved campaign's HTML report (its
 * index and a page per cycle) and prints the index's path; with --history, a section on what
 * changed since the runs filed before it.
 */
import type { Command } from 'commander';
import { writeReport } from '../../../reports/write-report.js';
import { contextFromEnv } from '../../context.js';
import { historyOfRun } from '../../history/file-run.js';
import { defaultHistoryPath } from '../../history/history-store.js';
import { openResults } from '../../results/load-results.js';
import { runInterruptible } from '../../interrupts.js';
import { runAction } from '../run-action.js';

export { writeReport };

export function register(program: Command): void {
  program
    .command('report')
    .description("render a campaign's HTML report from DIR/results.json and its cycle records: a self-contained index (DIR/index.html by default) and a page per cycle beside it (DIR/index-cycles/)")
    .argument('<dir>', 'a campaign output folder holding results.json')
    .option('--out <file>', 'write the index here instead of DIR/index.html; the cycle pages go beside it, in <name>-cycles/ (either replaced only when it is a report\'s)')
    .option('--history [store]', 'add "Since earlier runs" from the history store (default: history.sqlite in the work dir), where DIR is filed')
    .action(runAction(async (dir: string, options: { out?: string; history?: string | true }) => {
      const store = options.history === true ? defaultHistoryPath(contextFromEnv().workDir) : options.history;
      const history = store === undefined ? undefined : await historyOfRun((await openResults(dir)).summary, dir, store);
      const path = await runInterruptible((signal) => writeReport(dir, options.out, { history, signal }));
      process.stdout.write(`${path}\n`);
    }));
}
