/**
 * What the run kept for `rig repro`, and why: the campaign's evidence policy, then the cycles that
 * kept evidence by the reason that kept them, their size, and those given up for the cap.
 */
import { EVIDENCE_REASONS, type EvidenceReason } from '../../rig/results/evidence-note.js';
import type { BriefedResults } from '../../rig/results/cycle-brief.js';
import { formatBytes, formatStorage } from '../format.js';
import { html, type Html } from '../html.js';

const REASON_TEXT: Record<EvidenceReason, string> = {
  contradicting: 'contradicted their expectation',
  findings: 'hit a known finding',
  torn: 'held a torn page (or a broken write order)',
  sample: 'the per-scenario sample',
  all: 'because keep is all',
};

export function evidenceSection(results: BriefedResults): Html | null {
  if (results.cycles.length === 0) return null;
  const policy = results.evidence;
  const noted = results.cycles.filter((c) => c.evidence !== null);
  const kept = noted.filter((c) => c.evidence!.kept !== null);
  const bytes = kept.reduce((n, c) => n + c.evidence!.bytes, 0);
  const givenUp = noted.filter((c) => c.evidence!.givenUp).length;
  const byReason = EVIDENCE_REASONS.map((r) => [r, kept.filter((c) => c.evidence!.kept === r).length] as const).filter(([, n]) => n > 0);
  const which = policy?.keep.includes('all')
    ? 'every cycle'
    : `cycles that ${policy?.keep.map((r) => (r === 'sample' ? `are among the first ${policy.sample} of their scenario` : REASON_TEXT[r])).join(', ')}`;
  const asked = policy
    ? html`<p>The campaign keeps evidence for ${which}, within ${formatBytes(policy.maxBytes)}; what contradicted its expectation or hit a finding is never given up.</p>`
    : html`<p class="sub">These results predate the evidence policy: cycles that contradicted, hit a finding or tore kept theirs.</p>`;
  const older = results.cycles.length - noted.length;
  // an older record says whether it kept its evidence (its evidenceDir), not why or how much
  const olderKept = results.cycles.filter((c) => c.evidence === null && c.evidenceKept).length;
  return html`<section id="evidence"><h2>Evidence</h2>${asked}
<p>Kept for <b>${kept.length + olderKept}</b> of ${results.cycles.length} cycles${kept.length ? html`, ${formatStorage(bytes)}` : null}${byReason.length ? html`: ${byReason.map(([r, n], i) => html`${i ? ', ' : ''}${n} ${REASON_TEXT[r]}`)}` : null}.${givenUp ? html` Given up for the cap: <b>${givenUp}</b>.` : null}${older ? html` <span class="sub">${older === 1 ? 'One record is older than the evidence note: it says' : `${older} records are older than the evidence note: they say`} whether ${older === 1 ? 'it' : 'they'} kept evidence (${olderKept} did), not why or how much.</span>` : null}</p>
<p class="sub">Each cycle's page says whether its crash image was kept and why; <code>rig repro</code> rebuilds a kept one.</p></section>`;
}
