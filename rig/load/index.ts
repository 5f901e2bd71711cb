/**
 * The write load and its dataset. `startLoad` picks the builtin load (ledger of acknowledged
 * commits) or sysbench (no ledger; its result says so).
 */
import type { LoadHandle, LoadOptions } from './types.js';
import { runBuiltinLoad } from './builtin-load.js';
import { runSysbenchLoad } from './sysbench.js';

export { prepareDataset, DEFAULT_SCHEMA, LEDGER_TABLE, type DatasetOptions } from './dataset.js';
export { runBuiltinLoad } from './builtin-load.js';
export { runSysbenchLoad, SYSBENCH_NOTE } from './sysbench.js';
export { DEFAULT_MIX } from './load-mix.js';
export { LOAD_KINDS, type LoadKind, type LoadMix } from '../results/load-kinds.js';
export type { LifecycleLedger, TableSteps } from './lifecycle/acked-steps.js';
export type { LoadError, LoadHandle, LoadOptions, LoadResult, ThroughputBucket } from './types.js';

export function startLoad(kind: 'builtin' | 'sysbench', options: LoadOptions): LoadHandle {
  return kind === 'sysbench' ? runSysbenchLoad(options) : runBuiltinLoad(options);
}
