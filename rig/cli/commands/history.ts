/**
 * `rig history add DIR`: files a campaign run into the history store (one SQLite file, by default
 * the work dir's history.sqlite). `rig history [--campaign NAME] [--last N]`: the latest run held
 * against the ones before it, with the rates over them (rig/history/history-view.ts); exit 0 when
 * nothing moved, 1 when something did, as `rig compare` does.
 */
import type { Command } from 'commander';
import { contextFromEnv } from '../../context.js';
import { badInput } from '../../errors.js';
import { fileRun } from '../../history/file-run.js';
import { defaultHistoryPath, HistoryStore } from '../../history/history-store.js';
import { DEFAULT_HISTORY_RUNS, historyLines, historyView } from '../../history/history-view.js';
import { loadResults } from '../../results/load-results.js';
import { runAction } from '../run-action.js';

function lastOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_HISTORY_RUNS;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 2) throw badInput(`--last: '${value}' is not a whole number of at least 2; give how many runs to read, the latest among them`);
  return n;
}

export function register(program: Command): void {
  const history = program
    .command('history')
    .description('the runs filed with `rig history add`: the latest against the ones before it; exit 0 nothing moved, 1 something did')
    .option('--store <file>', 'the history store (default: history.sqlite in the work dir)')
    .option('--campaign <name>', 'the campaign to read (default: the only one filed)')
    .option('--last <n>', `how many runs to read, the latest among them (default ${DEFAULT_HISTORY_RUNS})`)
    .option('--json', 'print it as JSON')
    .action(runAction(async (options: { store?: string; campaign?: string; last?: string; json?: boolean }) => {
      const last = lastOf(options.last);
      const store = await HistoryStore.open(options.store ?? defaultHistoryPath(contextFromEnv().workDir), { read: true });
      try {
        const campaigns = store.campaigns();
        const campaign = options.campaign ?? (campaigns.length === 1 ? campaigns[0]! : undefined);
        if (!campaign) {
          throw badInput(campaigns.length
            ? `${store.path} holds several campaigns (${campaigns.join(', ')}): name one with --campaign`
            : `${store.path} holds no runs yet: file one with rig history add DIR`);
        }
        if (!campaigns.includes(campaign)) throw badInput(`--campaign: no run of '${campaign}' is filed in ${store.path}; filed: ${campaigns.join(', ')}`);
        const view = historyView(store.runs(campaign), last);
        process.stdout.write(`${options.json ? JSON.stringify(view, null, 2) : historyLines(view).join('\n')}\n`);
        return view.changes.length ? 1 : 0;
      } finally {
        store.close();
      }
    }));
  history
    .command('add')
    .description('file a campaign run (a folder holding results.json) into the history store')
    .argument('<dir>', 'a folder a campaign or rig merge wrote')
    .option('--store <file>', 'the history store (default: history.sqlite in the work dir)')
    .action(runAction(async (dir: string, options: { store?: string }) => {
      const { results } = await loadResults(dir);
      const store = options.store ?? history.opts<{ store?: string }>().store ?? defaultHistoryPath(contextFromEnv().workDir);
      process.stdout.write(`${await fileRun(results, dir, store)}\n`);
    }));
}
