/** The builtin load's kinds of step, and a mix of them by weight (what they do: rig/load/load-mix.ts). */
export const LOAD_KINDS = ['write-only', 'churn', 'alter', 'partitions', 'partition-truncate', 'bulk', 'survey-bait'] as const;
export type LoadKind = (typeof LOAD_KINDS)[number];

/** Relative weights of the kinds; a kind that is absent (or 0) never runs. */
export type LoadMix = Partial<Record<LoadKind, number>>;
