/**
 * The O_DIRECT_NO_FSYNC finding (docs/findings/o-direct-no-fsync.md), built on purpose on every run:
 * one load recorded with doublewrite on and innodb_flush_method=O_DIRECT_NO_FSYNC, and the first
 * moment of it where a home write of a table's index page was pending after the write carrying its
 * doublewrite copy, with no flush between them and no copy of that page durable before. At that
 * moment the copy's write is dropped and the home write torn, every other write landed: what a
 * volatile cache may keep. The torn page has no copy the server accepts, and the server cannot
 * recover it. The same settings with O_DIRECT (which flushes the copies first) are checked by
 * test/cycle/crash-cycle.int.test.ts never to issue a home write before its copy's flush.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FINDINGS } from '../../rig/findings/catalog.js';
import { FIL_PAGE_INDEX } from '../../rig/pages/page-format.js';
import { contradicts } from '../../rig/results/expectation.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import type { ScenarioSettings } from '../../rig/results/types.js';
import { homeWrites, judgeBarrier, recordOnce } from '../fixtures/recorded-states.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { localScenario } from '../fixtures/local-scenario.js';

const work = mkdtempSync(join(tmpdir(), 'rig-odnf-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const local = createLocalRuntime();

const settings: ScenarioSettings = localScenario('odnf', {
  server: { flushMethod: 'O_DIRECT_NO_FSYNC', bufferPool: '64M' },
  disk: { trigger: { kind: 'at-time', ms: 6000 } },
  expect: 'recovers',
});

t.test('a home write issued before its copy was flushed leaves a torn page no copy restores', async (t) => {
  const rec = await recordOnce(settings, 1, join(work, 'recording'), PREPARED_CACHE, local);
  const home = homeWrites(rec);
  const early = home.filter((h) => h.copiesInFlight.length > 0);
  const candidates = early.filter((h) => !h.anyDurableCopy && h.page.type === FIL_PAGE_INDEX && h.page.number > 3 && h.page.space !== 0);
  t.comment(`recorded ${rec.barriers.writes.length} writes, ${rec.barriers.barriers.length} barriers; ${home.length} home writes pending at some barrier, ` +
    `${early.length} with their copy's write pending before them, ${candidates.length} of those an index page with no copy durable`);
  const hit = candidates[0];
  if (!hit) return t.fail('the recording holds no home write issued before its copy was flushed: nothing to build the state from');
  const fates = new Map<number, 'torn' | 'dropped'>([...hit.copiesInFlight.map((c) => [c.seq, 'dropped'] as const), [hit.write.seq, 'torn']]);
  const { record } = await judgeBarrier(rec, hit.barrier, fates, `page ${hit.page.number} of space ${hit.page.space} torn, its copy's write dropped`, join(work, 'built'), local);
  t.comment(`barrier ${hit.barrier.index}: ${record.verdict}: ${record.reason}`);
  const page = record.tornPagesBefore.find((p) => p.space === hit.page.space && p.page === hit.page.number);
  if (!page) return t.fail(`the page torn on purpose is not in the record: ${record.reason}`);
  t.notOk(page.doublewrite.restorable, `no copy the server accepts: ${page.doublewrite.why}`);
  t.ok(page.doublewrite.inFlight?.some((c) => c.beforeHomeWrite), 'its copy was in flight, written before its home write');
  t.match(record.reason, /home writes? (was|were) issued while (its|their) doublewrite copy was still unflushed \(no flush between them\)/);
  t.ok(FINDINGS['o-direct-no-fsync'].matches(record), 'the finding, by its signature');
  t.ok(contradicts('recovers', record.verdict, record.tornPagesBefore.length), `${record.verdict} breaks the claim`);
  t.not(page.validAfter, true, 'the page did not come back');
});
