/** The short human summary `rig cycle` prints. */
import { doublewriteMode } from '../results/doublewrite-mode.js';
import { describeDevice } from '../results/device-text.js';
import { showMix } from '../load/load-mix.js';
import { ibdPageZeroWrites, lifecyclePageZeroWrites } from '../results/page-zero.js';
import { PHASES, type CycleRecord, type RocksdbFileWrites, type WriteOrderCheck } from '../results/types.js';
import { blocksDigestName, digestBlockOf } from '../results/crash-image-digest.js';

export function formatCycleSummary(r: CycleRecord): string {
  const s = r.settings;
  const lines = [
    `${r.id}: ${r.verdict.toUpperCase()} (expected ${r.expectation}: ${r.expectationHeld ? 'held' : 'NOT held'})`,
    `  ${r.reason}`,
    `  settings: ${s.server.engine === 'rocksdb' ? 'engine rocksdb, ' : ''}doublewrite ${doublewriteMode(s.server.doublewrite)}, atomic ${s.disk.atomicUnit} B, profile ${describeDevice(s.disk)}, ${s.disk.fs}, page ${s.server.pageSize} B, seed ${r.seed}` +
      (s.load.mix ? `; load mix ${showMix(s.load.mix)}` : ''),
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
  if (r.rocksdbWrites) {
    const fated = (w: RocksdbFileWrites) => `${w.landed} landed, ${w.dropped} dropped, ${w.torn} torn`;
    lines.push(`  rocksdb writes pending at the cut: log ${fated(r.rocksdbWrites.wal)}; SST and MANIFEST ${fated(r.rocksdbWrites.other)}`);
  }
  const c = r.pagesTouched;
  if (c && r.reconciliation) {
    lines.push(
      `  truth: ${c.torn + c.whole + c.unwritten + c['doublewrite-area']} pages touched (${c.torn} torn, ${c.whole} whole, ${c.unwritten} unwritten extent, ` +
        `${c['doublewrite-area']} doublewrite area); the scan ${r.reconciliation.ok ? 'agrees' : 'DISAGREES'}; checkpoint LSN ${r.checkpointLsn ?? 'unknown'}`,
    );
  }
  if (r.pageZeroWrites) {
    const files = r.pageZeroWrites.map((p) => `${p.file} ${p.writes}${p.class === 'whole' ? '' : ` (${p.class})`}`).join(', ');
    lines.push(`  page 0 writes pending at the cut: ${ibdPageZeroWrites(r)} on .ibd files, ${lifecyclePageZeroWrites(r)} of them on lifecycle tables${files ? `; ${files}` : ''}`);
  }
  if (r.writeOrder) lines.push(...writeOrderLines(r.writeOrder));
  for (const p of r.tornPagesBefore.slice(0, 8)) {
    const units = p.unitsNew.map((n) => (n ? 'N' : 'o')).join('');
    const after = p.freedAfter ? ' -> freed' : p.currentAfter === false ? ' -> OLDER than its newest write' : p.attribution ? ` -> ${p.attribution}` : '';
    const split = p.partlyUnwritten ? ` (${p.partlyUnwritten.unwrittenBytes} bytes in an extent still unwritten)` : p.inPieces ? ` (reached the disk in pieces: partial writes ${p.inPieces.partialWrites.join(', ') || 'none'}, last writers ${p.inPieces.lastWriters.join(', ') || 'none'}${p.inPieces.bytesBeforeWindow ? ' and older' : ''})` : '';
    lines.push(`    ${p.file} page ${p.page} [${units}]${split} ${p.invalidBefore ?? 'still verified'}${after}`);
  }
  if (r.tornPagesBefore.length > 8) lines.push(`    ... ${r.tornPagesBefore.length - 8} more`);
  for (const p of r.tornPagesBefore) {
    if (!p.page0 || p.page0.path === 'system') continue;
    const first = p.page0.firstPages.map((f) => `${f.page} ${f.state}`).join(', ');
    lines.push(`  page 0 of ${p.file}: copy looked up by ${p.page0.path} (header space id ${p.page0.headerSpaceId ?? 'unusable'}; pages ${first}); ${p.doublewrite.why}`);
    for (const line of p.page0.serverLog.slice(0, 4)) lines.push(`    server: ${line}`);
    if (p.page0.finding) lines.push(`    FINDING: ${p.page0.finding}`);
  }
  const steps = r.ledger.steps ? `; lifecycle steps ${r.ledger.steps.acked} acked, ${r.ledger.steps.missing} undone` : '';
  lines.push(
    `  ledger: ${r.ledger.checked ? `${r.ledger.acked} acked, ${r.ledger.missing} missing` : r.ledger.note ?? 'not checked'}${steps}; ` +
      `invariants broken: ${r.invariants.checked ? r.invariants.violations.length : 'not checked'}; CHECK TABLE failures: ${r.checkTable.failed.length}`,
  );
  if (r.recovery) {
    const run = r.recovery;
    const exit = !run.exit ? 'end not seen' : run.exit.signal ? `signal ${run.exit.signal}` : `exit code ${run.exit.exitCode}`;
    const ready = run.readyMs === null ? 'never answered' : `ready after ${(run.readyMs / 1000).toFixed(1)} s`;
    const bound = run.stalled ? `; it stalled for ${(run.stalled.forMs / 1000).toFixed(1)} s before its start bound` : run.timedOut ? `; the ${run.timedOut} bound passed` : '';
    lines.push(`  recovery server: ${ready}; ended in its ${run.endedIn} (${exit}); shutdown ${run.shutdown}${bound}`);
  }
  if (r.exercised) {
    const e = r.exercised;
    lines.push(`  exercised: ${e.tornDoublewrite} in-use torn pages with an accepted doublewrite copy, ${e.tornRedo} without one (left to the redo log), ${e.tornFreed} freed; ${e.pageWritesInFlight} page writes in flight at the cut`);
  }
  if (r.cut?.straddled) {
    const named = Object.entries(r.cut.straddled).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
    if (named) lines.push(`  straddling page writes by target: ${named}`);
  }
  lines.push(`  timings: ${PHASES.filter((p) => r.timings[p] !== undefined).map((p) => `${p} ${(r.timings[p]! / 1000).toFixed(1)}s`).join(', ')}`);
  if (r.crashImageSha256) lines.push(`  crash image sha256 ${r.crashImageSha256}`);
  if (r.crashImageBlocksSha256) lines.push(`  crash image ${blocksDigestName(digestBlockOf(r))} ${r.crashImageBlocksSha256}`);
  if (r.error) lines.push(`  error: ${r.error}`);
  return lines.join('\n');
}

const ms = (us: number): string => `${(us / 1000).toFixed(1)} ms`;

/** The write-order check: one line, the violating pages, and when the disk saw the checkpoint. */
export function writeOrderLines(w: WriteOrderCheck): string[] {
  if (w.checkpointLsn === null) return [`  write order: not checked (${w.why ?? 'no checkpoint'})`];
  const head = `  write order: durable checkpoint LSN ${w.checkpointLsn}; ${w.pendingVersions} pending versions of ${w.pagesChecked} pages checked; ` +
    (w.violationCount ? `ORDERING VIOLATION observed at the device on ${w.violationCount} pages (pending version older than the checkpoint)` : 'no ordering violation');
  const lines = [head];
  const d = w.device;
  const durable = d?.checkpointDurableAt;
  for (const v of w.violations.slice(0, 8)) {
    const free = v.free === null ? 'free unknown' : v.free ? 'FREE' : 'in use';
    const late = v.arrivedUs !== undefined && durable ? `, reached the disk ${ms(v.arrivedUs - durable.atUs)} after the checkpoint was durable` : '';
    lines.push(`    ${v.file} page ${v.page}: durable LSN ${v.durableLsn}, pending LSN ${v.pendingLsn} (write seq ${v.seq}, ${v.length} B), ${free}${v.unwritten ? ', unwritten extent' : ''}${late}`);
  }
  if (w.violationCount > 8) lines.push(`    ... ${w.violationCount - 8} more`);
  if (d && w.violationCount) {
    const write = d.checkpointWrite ? `checkpoint block written at seq ${d.checkpointWrite.seq}` : 'checkpoint block write before the order log';
    const by = !durable ? 'durable before the log' : durable.by === 'flush' ? `durable at flush #${durable.flush} (boundary seq ${durable.boundary})` : durable.by === 'complete' ? 'durable as it completed (a durable cache)' : `retired as durable by the journal bound`;
    const since = d.flushesSinceCheckpoint === null ? '' : `, ${d.flushesSinceCheckpoint} flushes after it`;
    const cut = durable && d.cutUs !== null ? `, ${ms(d.cutUs - durable.atUs)} before the cut` : '';
    lines.push(`    disk order: ${write}, ${by}${since}${cut}; journal bound retired ${d.retired} writes in the log's window`);
  }
  return lines;
}
