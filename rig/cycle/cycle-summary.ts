/** The short human summary `rig cycle` prints. */
import { PHASES, type CycleRecord } from '../results/types.js';

export function formatCycleSummary(r: CycleRecord): string {
  const s = r.settings;
  const lines = [
    `${r.id}: ${r.verdict.toUpperCase()} (expected ${r.expectation}: ${r.expectationHeld ? 'held' : 'NOT held'})`,
    `  ${r.reason}`,
    `  settings: doublewrite ${s.server.doublewrite ? 'on' : 'off'}, atomic ${s.disk.atomicUnit} B, ${s.disk.fs}, page ${s.server.pageSize} B, seed ${r.seed}`,
  ];
  if (r.cut) {
    lines.push(
      `  cut: ${r.cut.reason} after ${(r.cut.atMs / 1000).toFixed(1)} s, ${r.cut.pending} writes pending (${r.cut.pendingPageWrites} page-size); ` +
        `${r.cut.stats.pageWritesStraddling} page writes straddled an atomic-unit boundary`,
    );
  }
  const fates = { landed: 0, dropped: 0, torn: 0 };
  for (const w of r.pendingWrites) fates[w.fate]++;
  lines.push(`  fates: ${fates.landed} landed, ${fates.dropped} dropped, ${fates.torn} torn; ${r.tornPagesBefore.length} torn pages`);
  const c = r.pagesTouched;
  if (c && r.reconciliation) {
    lines.push(
      `  truth: ${c.torn + c.whole + c.unwritten + c['doublewrite-area']} pages touched (${c.torn} torn, ${c.whole} whole, ${c.unwritten} unwritten extent, ` +
        `${c['doublewrite-area']} doublewrite area); the scan ${r.reconciliation.ok ? 'agrees' : 'DISAGREES'}; checkpoint LSN ${r.checkpointLsn ?? 'unknown'}`,
    );
  }
  for (const p of r.tornPagesBefore.slice(0, 8)) {
    const units = p.unitsNew.map((n) => (n ? 'N' : 'o')).join('');
    const after = p.freedAfter ? ' -> freed' : p.currentAfter === false ? ' -> OLDER than its newest write' : p.attribution ? ` -> ${p.attribution}` : '';
    lines.push(`    ${p.file} page ${p.page} [${units}] ${p.invalidBefore ?? 'still verified'}${after}`);
  }
  if (r.tornPagesBefore.length > 8) lines.push(`    ... ${r.tornPagesBefore.length - 8} more`);
  lines.push(
    `  ledger: ${r.ledger.checked ? `${r.ledger.acked} acked, ${r.ledger.missing} missing` : r.ledger.note ?? 'not checked'}; ` +
      `invariants broken: ${r.invariants.checked ? r.invariants.violations.length : 'not checked'}; CHECK TABLE failures: ${r.checkTable.failed.length}`,
  );
  if (r.recovery) {
    const run = r.recovery;
    const exit = !run.exit ? 'end not seen' : run.exit.signal ? `signal ${run.exit.signal}` : `exit code ${run.exit.exitCode}`;
    const ready = run.readyMs === null ? 'never answered' : `ready after ${(run.readyMs / 1000).toFixed(1)} s`;
    const bound = run.timedOut ? `; the ${run.timedOut} bound passed` : '';
    lines.push(`  recovery server: ${ready}; ended in its ${run.endedIn} (${exit}); shutdown ${run.shutdown}${bound}`);
  }
  if (r.exercised) {
    const e = r.exercised;
    lines.push(`  exercised: ${e.tornDoublewrite} in-use torn pages with an accepted doublewrite copy, ${e.tornRedo} only redo rebuilds, ${e.tornFreed} freed; ${e.pageWritesInFlight} page writes in flight at the cut`);
  }
  if (r.cut?.straddled) {
    const named = Object.entries(r.cut.straddled).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
    if (named) lines.push(`  straddling page writes by target: ${named}`);
  }
  lines.push(`  timings: ${PHASES.filter((p) => r.timings[p] !== undefined).map((p) => `${p} ${(r.timings[p]! / 1000).toFixed(1)}s`).join(', ')}`);
  if (r.crashImageSha256) lines.push(`  crash image sha256 ${r.crashImageSha256}`);
  if (r.error) lines.push(`  error: ${r.error}`);
  return lines.join('\n');
}
