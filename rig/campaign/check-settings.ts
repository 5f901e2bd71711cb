/**
 * Combinations no cycle could run with, found before anything is created. Each problem names the
 * scenario key to change (relative to the scenario) and the fix.
 */
import { DATADIR_SLACK_BYTES } from '../defaults.js';
import { BULK_TABLE_MAX_BYTES } from '../load/lifecycle/bulk.js';
import { isDefaultMix, showMix } from '../load/load-mix.js';
import type { ScenarioSettings } from '../results/types.js';
import { diskSizeProblem } from '../../faults/filesystems.js';
import { dmModelProblem } from '../../faults/dm/dm-preflight.js';
import { exploreRefusal } from '../explore/explore-refusal.js';
import { readSize, showSize } from '../../faults/sizes.js';
import { formatTrigger } from '../../faults/trigger.js';

export interface SettingsProblem {
  key: string; // e.g. 'server.bufferPool'
  message: string;
}

const MiB = 1024 * 1024;
/** mariadbd 10.11 refuses to start below these ("innodb_page_size=N requires innodb_buffer_pool_size >= M MiB"). */
const MIN_BUFFER_POOL: Record<number, number> = { 4096: 2 * MiB, 8192: 3 * MiB, 16384: 6 * MiB, 32768: 11 * MiB, 65536: 21 * MiB };

type Check = (s: ScenarioSettings) => SettingsProblem | null;

const checks: Check[] = [
  (s) => {
    const message = s.disk.backend === 'dm' ? dmModelProblem(s.disk.model, s.explore !== undefined) : null;
    return message ? { key: 'disk.backend', message } : null;
  },
  (s) =>
    s.runtime === 'local' && s.image
      ? { key: 'image', message: 'an image is used only with runtime: docker; remove image or set runtime: docker' }
      : null,
  (s) => {
    const min = MIN_BUFFER_POOL[s.server.pageSize]!;
    const pool = readSize(s.server.bufferPool)!;
    return pool < min
      ? { key: 'server.bufferPool', message: `${showSize(pool)} is too small for ${showSize(s.server.pageSize)} pages (mariadbd refuses to start); use ${showSize(min)} or more` }
      : null;
  },
  (s) => {
    const t = s.disk.trigger;
    const needed = t.kind === 'armed' ? t.pendingPageWrites * s.server.pageSize : 0;
    return needed > s.disk.journalMaxBytes
      ? { key: 'disk.cacheBound', message: `${showSize(s.disk.journalMaxBytes)} cannot hold the pending page writes '${formatTrigger(t)}' waits for (older writes retire as durable, so the cut would never fire); use ${showSize(needed)} or more` }
      : null;
  },
  (s) =>
    s.disk.trigger.kind === 'at-time' && s.disk.trigger.ms >= s.load.maxSeconds * 1000
      ? { key: 'disk.trigger', message: `'${formatTrigger(s.disk.trigger)}' fires after the load gives up (load.maxSeconds: ${s.load.maxSeconds}); use an earlier time or raise load.maxSeconds` }
      : null,
  (s) => {
    const message = diskSizeProblem(s.disk.fs, s.disk.sizeBytes);
    return message ? { key: 'disk.size', message } : null;
  },
  (s) => {
    const needed = readSize(s.server.redoSize)! + DATADIR_SLACK_BYTES;
    return s.disk.sizeBytes < needed
      ? { key: 'disk.size', message: `${showSize(s.disk.sizeBytes)} cannot hold the ${s.server.redoSize} redo log and the rest of the datadir; use ${showSize(needed)} or more` }
      : null;
  },
  (s) =>
    s.load.kind === 'sysbench' && !isDefaultMix(s.load.mix)
      ? { key: 'load.mix', message: `sysbench runs only its own oltp_write_only, not the mix '${showMix(s.load.mix!)}'; use kind: builtin or remove load.mix` }
      : null,
  (s) =>
    s.load.kind === 'sysbench' && s.expect === 'commits-kept'
      ? { key: 'load.kind', message: "expect: commits-kept is judged on the builtin load's ledger of acknowledged commits, and sysbench keeps none (its PASS would prove nothing); use kind: builtin" }
      : null,
  (s) =>
    s.server.engine === 'rocksdb' && !isDefaultMix(s.load.mix)
      ? { key: 'load.mix', message: `the mix '${showMix(s.load.mix!)}' has InnoDB's own DDL and tablespace checks, not RocksDB's; with engine: rocksdb use the write-only mix (remove load.mix)` }
      : null,
  (s) => {
    if (!(s.load.mix?.bulk ?? 0)) return null;
    const needed = readSize(s.server.redoSize)! + DATADIR_SLACK_BYTES + s.load.connections * BULK_TABLE_MAX_BYTES;
    return s.disk.sizeBytes < needed
      ? { key: 'disk.size', message: `${showSize(s.disk.sizeBytes)} cannot hold the redo log, the datadir and a bulk table of up to ${showSize(BULK_TABLE_MAX_BYTES)} per connection; use ${showSize(needed)} or more, or fewer connections` }
      : null;
  },
  (s) => {
    return s.explore ? exploreRefusal(s) : null;
  },
];

/** The first impossible combination in a resolved scenario, or null. */
export function checkSettings(settings: ScenarioSettings): SettingsProblem | null {
  for (const check of checks) {
    const problem = check(settings);
    if (problem) return problem;
  }
  return null;
}
