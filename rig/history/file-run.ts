/**
 * Filing a finished run into the history store and reading it back as the store holds it: what
 * `rig history add`, `rig report --history` and `rig campaign --history` share.
 */
import { badInput } from '../errors.js';
import type { CampaignResults } from '../results/types.js';
import { HistoryStore } from './history-store.js';
import { DEFAULT_HISTORY_RUNS, historyViewAt, type HistoryView } from './history-view.js';

/** Files the run `results` (read from `dir`) into the store at `storePath`; one line says what happened. */
export async function fileRun(results: CampaignResults, dir: string, storePath: string): Promise<string> {
  if (results.outcome === 'running') throw badInput(`${dir}: the campaign is still running (or was killed); file it once it finished, or after --resume`);
  const store = await HistoryStore.open(storePath);
  try {
    const filed = store.add(results, dir);
    return filed.added
      ? `filed run ${filed.id}: ${results.campaign}, started ${results.startedAt}, ${results.cycles.length} cycles, in ${store.path}`
      : `already filed as run ${filed.id}: ${results.campaign}, started ${results.startedAt} (${store.path})`;
  } finally {
    store.close();
  }
}

/** The run `results` (from `dir`) as the store holds it: filed, held against the runs filed before it. */
export async function historyOfRun(results: Pick<CampaignResults, 'campaign' | 'startedAt'>, dir: string, storePath: string): Promise<HistoryView> {
  const store = await HistoryStore.open(storePath, { read: true });
  try {
    const view = historyViewAt(store.runs(results.campaign), results.startedAt, DEFAULT_HISTORY_RUNS);
    if (!view) throw badInput(`${dir}: this run is not filed in ${storePath}; file it first with rig history add ${dir}`);
    return view;
  } finally {
    store.close();
  }
}
