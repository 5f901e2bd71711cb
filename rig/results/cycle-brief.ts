/**
 * What a campaign-wide view needs of one cycle (the report's index, its filters and alarms): its
 * identity, verdict, the count of its torn pages, the known finding it shows, its cut's counters.
 * About 0.5 KB against a record's 10-70 KB, so the briefs of 10,000 cycles fit in memory while the
 * records stream past.
 */
import { FINDINGS, knownFinding } from '../findings/catalog.js';
import type { FindingId } from './finding-ids.js';
import type { EvidenceReason } from './evidence-note.js';
import type { CampaignResults, CycleRecord, Expectation, StraddleTargets, Verdict } from './types.js';

export interface CycleBrief {
  id: string;
  scenario: string;
  cycle: number;
  seed: number;
  verdict: Verdict;
  expectation: Expectation;
  expectationHeld: boolean;
  reason: string; // its first line, cut at REASON_CHARS
  error?: string; // a rig error: what failed, its first line, cut likewise
  tornPages: number; // torn pages before recovery
  server: { version: string } | null;
  cut: { stats: { pageWrites: number; pageWritesStraddling?: number }; straddled?: StraddleTargets } | null;
  /** The known finding of its scenario the cycle shows (judged cycles only). */
  finding: FindingId | null;
  explore: boolean; // a state judged from a recording
  /** Its evidence: kept and why, or given up for the cap (null: a record older than the note). */
  evidence: { kept: EvidenceReason | null; bytes: number; givenUp: boolean } | null;
  /** Whether its evidence is kept (its evidenceDir): what a record older than the note says. */
  evidenceKept: boolean;
}

const REASON_CHARS = 240;

export function briefOf(record: CycleRecord): CycleBrief {
  const clip = (text: string) => {
    const line = text.split('\n')[0]!.trim();
    return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
  };
  const findings = (record.settings.findings ?? []).map((id) => FINDINGS[id]);
  const stats = record.cut?.stats;
  return {
    id: record.id,
    scenario: record.scenario,
    cycle: record.cycle,
    seed: record.seed,
    verdict: record.verdict,
    expectation: record.expectation,
    expectationHeld: record.expectationHeld,
    reason: clip(record.reason),
    ...(record.error !== undefined ? { error: clip(record.error) } : {}),
    tornPages: record.tornPagesBefore.length,
    server: record.server ? { version: record.server.version } : null,
    cut: record.cut && stats
      ? { stats: { pageWrites: stats.pageWrites, pageWritesStraddling: stats.pageWritesStraddling }, ...(record.cut.straddled ? { straddled: record.cut.straddled } : {}) }
      : null,
    finding: record.verdict === 'rig-error' ? null : (knownFinding(findings, record)?.id ?? null),
    explore: record.explore !== undefined,
    evidence: record.evidence
      ? { kept: record.evidence.kept, bytes: record.evidence.bytes, givenUp: record.evidence.why.startsWith('given up') }
      : null,
    evidenceKept: record.evidenceDir !== null,
  };
}

/** A campaign's results with each cycle as its brief: what a campaign-wide view reads. */
export interface BriefedResults extends Omit<CampaignResults, 'cycles'> {
  cycles: CycleBrief[];
}

export function briefed(results: CampaignResults): BriefedResults {
  return { ...results, cycles: results.cycles.map(briefOf) };
}
