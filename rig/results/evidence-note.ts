/**
 * The words of an evidence policy and of a record's evidence note, shared by the record types,
 * the campaign that decides (rig/campaign/evidence-policy.ts) and the report that shows it.
 */
export const EVIDENCE_REASONS = ['contradicting', 'findings', 'torn', 'sample', 'all'] as const;
export type EvidenceReason = (typeof EVIDENCE_REASONS)[number];

export const DEFAULT_EVIDENCE_KEEP: EvidenceReason[] = ['contradicting', 'findings', 'torn'];

export interface EvidencePolicy {
  keep: EvidenceReason[];
  sample: number; // cycles a scenario keeps with `sample` (0 without it)
  maxBytes: number;
}

/** The evidence a cycle kept, or why it kept none (absent in records saved before it existed). */
export interface EvidenceNote {
  kept: EvidenceReason | null;
  why: string; // one line
  bytes: number; // allocated on disk, while kept
}
