/**
 * `rig report DIR [--out FILE] [--history [STORE]]`: renders a saved campaign's HTML report and prints
 * its path; with --history, a section on what changed since the runs filed before it.
 */
import type { Command } from 'commander';
import { writeReport } from '../../../reports/write-report.js';
import { contextFromEnv } from '../../context.js';
import { badInput } from '../../errors.js';
import { defaultHistoryPath, HistoryStore } from '../../history/history-store.js';
import { DEFAULT_HISTORY_RUNS, historyViewAt, type HistoryView } from '../../history/history-view.js';
import { loadResults } from '../../results/load-results.js';
import { runAction } from '../run-action.js';

/** The run in DIR as the history store has it: filed, held against the runs filed before it. */
async function historyOf(dir: string, store: string): Promise<HistoryView> {
  const { results } = await loadResults(dir);
  const history = await HistoryStore.open(store, { read: true });
  try {
    const view = historyViewAt(history.runs(results.campaign), results.startedAt, DEFAULT_HISTORY_RUNS);
    if (!view) throw badInput(`${dir}: this run is not filed in ${store}; file it first with rig history add ${dir}`);
    return view;
  } finally {
    history.close();
  }
}

export { writeReport };

export function register(program: Command): void {
  program
    .command('report')
    .description('render DIR/results.json as one self-contained HTML file (DIR/index.html by default)')
    .argument('<dir>', 'a campaign output folder holding results.json')
    .option('--out <file>', 'write the report here instead of DIR/index.html')
    .option('--history [store]', 'add "Since earlier runs" from the history store (default: history.sqlite in the work dir), where DIR is filed')
    .action(runAction(async (dir: string, options: { out?: string; history?: string | true }) => {
      const store = options.history === true ? defaultHistoryPath(contextFromEnv().workDir) : options.history;
      const history = store === undefined ? undefined : await historyOf(dir, store);
      const path = await writeReport(dir, options.out, { history });
      process.stdout.write(`${path}\n`);
    }));
}
