/**
 * pfdm-watch (faults/helper/pfdm-watch.c, driven by faults/dm/cut-watch.ts) on a file that stands
 * in for the kernel's: counters in the block layer's stat format, written by the test. Where the
 * trigger is met it asks the kernel to suspend a device that does not exist, so each firing shows
 * as that failure: the test sees when it fired, and the disk would hear why.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { armLine, CutWatch, parseHold, parseSeen, watchPath } from '../../../faults/dm/cut-watch.js';
import { defaultHelperPath } from '../../../faults/disk-environment.js';

const dir = mkdtempSync(join(tmpdir(), 'rig-cutwatch-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const WATCH = watchPath(defaultHelperPath());
const DEVICE = 'pcr-not-a-device';

/** The stat file's 17 fields: writes are the fifth, flushes the sixteenth. */
function setCounters(stat: string, writes: number, flushes = 0): void {
  const fields = [10, 0, 200, 5, writes, 0, 9000, 40, 0, 30, 45, 0, 0, 0, 0, flushes, 3];
  writeFileSync(stat, fields.map((f) => String(f).padStart(8)).join(' ') + '\n');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves with the failure once the watch fires, or 'quiet' after ms. */
async function firedWithin(watch: CutWatch, ms: number): Promise<string> {
  return Promise.race([
    watch.whenHeld().then(() => 'held', (e: Error) => e.message),
    sleep(ms).then(() => 'quiet'),
  ]);
}

t.test('the lines it speaks', async (t) => {
  t.same(parseHold('cut armed 17 312'), { reason: 'armed', pendingEstimate: 17, atMs: 312 });
  t.equal(parseHold('ok'), null);
  t.same(parseSeen('seen writes 102 flushes 8 since-flush 0'), { writes: 102, flushes: 8, sinceFlush: 0 });
  t.equal(parseSeen('ok'), null);
  t.equal(armLine({ kind: 'armed', pendingPageWrites: 16 }), 'arm armed 16');
  t.equal(armLine({ kind: 'after-writes', writes: 500 }), 'arm after-writes 500');
  t.equal(armLine({ kind: 'at-time', ms: 800 }), 'arm at-time 800');
  t.equal(armLine({ kind: 'manual' }), 'arm none');
  t.equal(armLine(null), 'arm none');
});

t.test('armed N fires at N writes since the last flush, not before', async (t) => {
  t.ok(existsSync(WATCH), `${WATCH} is built`);
  const stat = join(dir, 'armed.stat');
  setCounters(stat, 100, 7);
  const trace = join(dir, 'armed.trace');
  const watch = CutWatch.start(WATCH, DEVICE, stat, trace);
  t.teardown(() => watch.stop());
  await watch.arm({ kind: 'armed', pendingPageWrites: 3 });
  setCounters(stat, 102, 7);
  t.equal(await firedWithin(watch, 150), 'quiet', 'two writes pending: no cut');
  setCounters(stat, 102, 8);
  t.same(await watch.seen(), { writes: 102, flushes: 8, sinceFlush: 0 }, 'it has seen the flush');
  setCounters(stat, 104, 8);
  t.equal(await firedWithin(watch, 150), 'quiet', 'a flush made those durable: two since it');
  setCounters(stat, 105, 8);
  t.match(await firedWithin(watch, 2000), new RegExp(`^the dm disk's trigger fired but could not hold I/O: suspending ${DEVICE}: `), 'the third since the flush fires it');
  const lines = readFileSync(trace, 'utf8');
  t.match(lines, /^arm armed 3 at writes 100 flushes 7\n/, 'the trace starts at the arm');
  t.match(lines, /writes 102 flushes 8 since-flush 0/, 'and shows the flush it saw');
});

t.test('the trace keeps the arm and only the last 256 changes before the hold', async (t) => {
  const stat = join(dir, 'busy.stat');
  setCounters(stat, 0, 0);
  const trace = join(dir, 'busy.trace');
  const watch = CutWatch.start(WATCH, DEVICE, stat, trace);
  t.teardown(() => watch.stop());
  await watch.arm({ kind: 'after-writes', writes: 100_000 });
  // a flush after every write, so armed-style counting never nears the threshold: 400 changes, each
  // read by the watcher before the next (its own sampling could miss some on a busy machine)
  let unseen = 0;
  for (let w = 1; w <= 400; w++) {
    setCounters(stat, w, w);
    if ((await watch.seen()).writes !== w) unseen++;
  }
  t.equal(unseen, 0, 'the watcher read each change');
  setCounters(stat, 401, 401); // read by nobody before the arm below: the arm reads it first
  await watch.arm({ kind: 'after-writes', writes: 1 }); // arming again writes what the last arm saw
  const lines = readFileSync(trace, 'utf8').trimEnd().split('\n');
  t.match(lines[0], /^arm after-writes 100000 at writes 0 flushes 0$/, 'the first arm line');
  t.match(lines[1], /^\(\d+ earlier changes not kept\)$/, 'says how many it dropped');
  const changes = lines.filter((l) => / since-flush /.test(l));
  t.equal(changes.length, 256, 'keeps 256 changes');
  t.match(lines[1], /^\(145 earlier changes not kept\)$/, '401 changes, 256 kept');
  t.match(changes.at(-1), /writes 401 flushes 401 since-flush 0$/, 'the last change kept is the one the next arm found');
  t.match(lines.at(-1), /^arm after-writes 1 at writes 401 flushes 401$/, 'then the next arm');
});

t.test('after-writes counts from arming; at-time waits its time; cut holds at once', async (t) => {
  const stat = join(dir, 'other.stat');
  setCounters(stat, 50);
  const after = CutWatch.start(WATCH, DEVICE, stat, join(dir, 'after.trace'));
  t.teardown(() => after.stop());
  await after.arm({ kind: 'after-writes', writes: 5 });
  setCounters(stat, 54);
  t.equal(await firedWithin(after, 150), 'quiet');
  setCounters(stat, 55);
  t.match(await firedWithin(after, 2000), /could not hold I\/O/);

  const timed = CutWatch.start(WATCH, DEVICE, stat, join(dir, 'timed.trace'));
  t.teardown(() => timed.stop());
  const started = Date.now();
  await timed.arm({ kind: 'at-time', ms: 300 });
  t.match(await firedWithin(timed, 3000), /could not hold I\/O/);
  t.ok(Date.now() - started >= 300, 'not before its time');

  const manual = CutWatch.start(WATCH, DEVICE, stat, join(dir, 'manual.trace'));
  t.teardown(() => manual.stop());
  await manual.arm(null);
  await t.rejects(manual.cut(), new RegExp(`suspending ${DEVICE}`), 'a cut command holds at once, and says why it could not');
});

t.test('a watcher that cannot start says so', async (t) => {
  t.throws(() => CutWatch.start(join(dir, 'nothing'), DEVICE, 'x', 'z'), /the dm disk's watcher .*nothing is not built; run make build/);
  const watch = CutWatch.start(WATCH, DEVICE, join(dir, 'no-such-stat'), join(dir, 'x.trace'));
  await t.rejects(watch.arm({ kind: 'armed', pendingPageWrites: 1 }), /pfdm-watch ended \(exit 1\): pfdm-watch: cannot open .*no-such-stat/);
});
