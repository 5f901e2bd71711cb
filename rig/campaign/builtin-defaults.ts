/**
 * What a scenario gets for every setting neither it nor the campaign's `defaults` names. The
 * values follow MariaDB's own defaults where there is one (16k pages, O_DIRECT, 128M buffer
 * pool, 96M redo) and DESIGN.md's measured choices for the disk (armed 16, 4k atomic, ext4).
 */
import type { DiskSettings, LoadSettings, ServerSettings } from '../results/types.js';
import { DEFAULT_ARMED_PAGE_WRITES } from './trigger.js';

const MiB = 1024 * 1024;

export const DEFAULT_CYCLES = 3;
export const DEFAULT_CAMPAIGN_SEED = 1;
export const DEFAULT_EVIDENCE_MAX_BYTES = 2048 * MiB;

export const DEFAULT_SERVER: ServerSettings = {
  doublewrite: true,
  flushMethod: 'O_DIRECT',
  pageSize: 16384,
  bufferPool: '128M',
  redoSize: '96M',
};

export const DEFAULT_DISK: DiskSettings = {
  atomicUnit: 4096,
  fs: 'ext4',
  trigger: { kind: 'armed', pendingPageWrites: DEFAULT_ARMED_PAGE_WRITES },
  journalMaxBytes: 256 * MiB,
  sizeBytes: 512 * MiB,
};

export const DEFAULT_LOAD: LoadSettings = {
  kind: 'builtin',
  connections: 4,
  tables: 4,
  rows: 10_000,
  maxSeconds: 120,
};
