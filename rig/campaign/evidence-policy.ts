/**
 * Which cycles keep their evidence (the crash image, journal and plan `rig repro` rebuilds from),
 * as the campaign file's `evidence.keep` says, and why, in a line the record and the report carry:
 *   contradicting  a cycle that contradicted its expectation with no known finding to explain it
 *   findings       a cycle that hit one of its scenario's known findings
 *   torn           a crash image with a torn page, or a broken write-ahead order at the device
 *   sample         the first `evidence.sample` cycles (or states) of each scenario
 *   all            every cycle
 * The default keeps contradicting, findings and torn. Whatever is kept stays under
 * `evidence.maxBytes`; contradicting and finding evidence is never given up for it.
 */
import { FINDINGS, knownFinding } from '../findings/catalog.js';
import { contradicts } from '../results/expectation.js';
import type { CycleRecord } from '../results/types.js';
import { DEFAULT_EVIDENCE_KEEP, EVIDENCE_REASONS, type EvidenceNote, type EvidencePolicy, type EvidenceReason } from '../results/evidence-note.js';

export { DEFAULT_EVIDENCE_KEEP, EVIDENCE_REASONS, type EvidenceNote, type EvidencePolicy, type EvidenceReason };

/** Contradicted its expectation, a known finding or not: its evidence is never given up. */
export function isFailing(record: CycleRecord): boolean {
  return contradicts(record.expectation, record.verdict, record.tornPagesBefore.length);
}

function findingOf(record: CycleRecord): string | null {
  if (!isFailing(record)) return null;
  return knownFinding((record.settings.findings ?? []).map((id) => FINDINGS[id]), record)?.id ?? null;
}

/** Why `policy` keeps this cycle's evidence (the first reason that applies), or null. */
export function evidenceReason(record: CycleRecord, policy: Pick<EvidencePolicy, 'keep' | 'sample'>): EvidenceReason | null {
  const finding = findingOf(record);
  const applies: Record<EvidenceReason, boolean> = {
    contradicting: isFailing(record) && finding === null,
    findings: finding !== null,
    torn: record.tornPagesBefore.length > 0 || (record.writeOrder?.violationCount ?? 0) > 0,
    sample: record.cycle <= policy.sample,
    all: true,
  };
  return EVIDENCE_REASONS.find((r) => policy.keep.includes(r) && applies[r]) ?? null;
}

/** The line that says why the evidence was kept. */
export function keptWhy(reason: EvidenceReason, record: CycleRecord, policy: Pick<EvidencePolicy, 'sample'>): string {
  switch (reason) {
    case 'contradicting': return `it contradicted ${record.expectation} (${record.verdict})`;
    case 'findings': return `it hit known finding ${findingOf(record)}`;
    case 'torn': return record.tornPagesBefore.length > 0 ? `its crash image held ${record.tornPagesBefore.length} torn page(s)` : 'the write-ahead order broke at the device';
    case 'sample': return `a sample: the first ${policy.sample} of its scenario`;
    case 'all': return 'evidence.keep is all';
  }
}

/** The line that says why a cycle keeps no evidence, when the policy did not ask for it. */
export function notAskedWhy(policy: Pick<EvidencePolicy, 'keep'>): string {
  return `not asked for: evidence.keep is ${policy.keep.join(', ')}`;
}
