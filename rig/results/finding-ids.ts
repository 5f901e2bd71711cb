/** The ids of the findings written up in docs/findings/ (their signatures: rig/findings/catalog.ts). */
export const FINDING_IDS = ['page0-not-restored', 'o-direct-no-fsync', 'unaligned-16k', 'par-not-synced', 'fsync-checkpoint-race', 'mysql-o-direct-dblwr', 'mysql-trx-sys-page', 'mysql-page0-survey', 'mysql-stale-dblwr-copy', 'create-then-rename', 'dblwr-unwritten-extent'] as const;
export type FindingId = (typeof FINDING_IDS)[number];
