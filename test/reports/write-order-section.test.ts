/** The write-order check as the cycle's text summary and its HTML detail show it. */
import t from 'tap';
import { writeOrderLines } from '../../rig/cycle/cycle-summary.js';
import type { CycleRecord, WriteOrderCheck } from '../../rig/results/types.js';
import { writeOrderBlock } from '../../reports/sections/cycle/write-order.js';

const violation = { file: './ibdata1', page: 255, durableLsn: 14300000, pendingLsn: 14392878, seq: 9001, offset: 1 << 24, length: 1 << 20, coveredWrites: 1, free: false, arrivedUs: 5_250 };
const fired: WriteOrderCheck = {
  checkpointLsn: 14418699, pagesChecked: 40, pendingVersions: 52, violationCount: 13,
  violations: [violation, { ...violation, page: 256, free: null, unwritten: true, arrivedUs: undefined as unknown as number }],
  device: {
    events: 1000, firstEventUs: 0, cutUs: 9_000,
    checkpointWrite: { seq: 8000, atUs: 1_000 },
    checkpointDurableAt: { by: 'flush', flush: 40, boundary: 8001, atUs: 1_250 },
    lastFlush: { flush: 44, boundary: 9000, atUs: 4_000 },
    flushesSinceCheckpoint: 4,
    retired: 0,
  },
};
delete (fired.violations[1] as { arrivedUs?: number }).arrivedUs;
const record = (writeOrder: WriteOrderCheck | null | undefined) => ({ writeOrder }) as unknown as CycleRecord;

t.test('the summary names the checkpoint, each page and when the disk saw things', async (t) => {
  const lines = writeOrderLines(fired);
  t.match(lines[0], /durable checkpoint LSN 14418699; 52 pending versions of 40 pages checked; ORDERING VIOLATION observed at the device on 13 pages/);
  t.match(lines[1], /\.\/ibdata1 page 255: durable LSN 14300000, pending LSN 14392878 \(write seq 9001, 1048576 B\), in use, reached the disk 4\.0 ms after the checkpoint was durable/);
  t.match(lines[2], /page 256: .*free unknown, unwritten extent$/);
  t.match(lines.at(-1), /checkpoint block written at seq 8000, durable at flush #40 \(boundary seq 8001\), 4 flushes after it, 7\.8 ms before the cut; journal bound retired 0 writes/);
  t.same(writeOrderLines({ ...fired, violationCount: 0, violations: [] }).length, 1);
  t.match(writeOrderLines({ ...fired, checkpointLsn: null, why: 'no ib_logfile0' })[0], /not checked \(no ib_logfile0\)/);
  const many = writeOrderLines({ ...fired, violations: Array(10).fill(violation) });
  t.equal(many.filter((l) => l.includes('page 255')).length, 8, 'eight pages listed');
  t.match(many[9], /\.\.\. 5 more/);
});

t.test('the HTML detail shows the violation beside the verdict, or why nothing was checked', async (t) => {
  const shown = String(writeOrderBlock(record(fired)));
  t.match(shown, /Ordering violation observed at the device/);
  t.match(shown, /<td class="num">255<\/td>/);
  t.match(shown, /\+4\.0 ms/);
  t.match(shown, /flush #40 made it durable, and 4 more flushes completed before the cut 7\.8 ms later/);
  t.match(shown, /11 more not shown \(the record lists the first 2\)/);
  t.match(String(writeOrderBlock(record({ ...fired, device: undefined }))), /kept no order log/);
  t.match(String(writeOrderBlock(record({ ...fired, violationCount: 0, violations: [] }))), /No pending page version older/);
  t.match(String(writeOrderBlock(record({ ...fired, checkpointLsn: null, why: 'no ib_logfile0' }))), /Not checked: no ib_logfile0/);
  t.match(String(writeOrderBlock(record(undefined))), /predates the check/);
  const retired = { ...fired, device: { ...fired.device!, checkpointWrite: null, checkpointDurableAt: { by: 'retire' as const, flush: null, boundary: 3, atUs: 1 }, flushesSinceCheckpoint: null } };
  t.match(String(writeOrderBlock(record(retired))), /before the order log’s window; the journal bound retired it as durable/);
});
