/**
 * The O_DIRECT_NO_FSYNC finding (docs/findings/o-direct-no-fsync.md), hunted on every run: real
 * cycles with doublewrite on and innodb_flush_method=O_DIRECT_NO_FSYNC, cut after a count of writes,
 * until one shows a torn page in use whose home write was issued while its doublewrite copy was
 * still unflushed and which no accepted copy can restore. The same settings with O_DIRECT (which
 * flushes the copies first) are checked by test/cycle/crash-cycle.int.test.ts never to show it.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contradicts } from '../../rig/results/expectation.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import type { ScenarioSettings } from '../../rig/results/types.js';
import { huntFinding } from '../fixtures/hunt-finding.js';
import { localScenario } from '../fixtures/local-scenario.js';

const work = mkdtempSync(join(tmpdir(), 'rig-odnf-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const local = createLocalRuntime();
const HUNT = 32;
/**
 * A count-of-writes cut often lands just after a flush, with nothing pending (no-torn): from a
 * fifth to half of the cycles hit in some runs, 0 of 32 in another (every cut after 400 writes).
 * The hunt varies the count by seed, so its cuts come at other points of the load as well.
 */
const COUNTS = [400, 1000, 150, 2500];

const settings = (seed: number): ScenarioSettings => localScenario('odnf', {
  server: { flushMethod: 'O_DIRECT_NO_FSYNC', bufferPool: '64M' },
  disk: { trigger: { kind: 'after-writes', writes: COUNTS[(seed - 1) % COUNTS.length]! } },
  expect: 'recovers',
});

t.test('a home write issued before its copy was flushed leaves a torn page no copy restores', async (t) => {
  const { hit: found, seen } = await huntFinding('o-direct-no-fsync', settings, local, work, HUNT);
  t.comment(`hunt: ${seen.join(', ')}`);
  const hit = found?.record;
  if (!hit) return t.fail(`no cycle of ${HUNT} showed a copy unflushed at its home write: the finding was not reproduced`);
  t.ok(contradicts('recovers', hit.verdict, hit.tornPagesBefore.length), `${hit.verdict} breaks the claim`);
  t.match(hit.reason, /home writes? (was|were) issued while (its|their) doublewrite copy was still unflushed \(no flush between them\)/);
  const early = hit.tornPagesBefore.filter((p) => p.doublewrite.inFlight?.some((c) => c.beforeHomeWrite));
  t.ok(early.length > 0);
  t.ok(early.some((p) => !p.doublewrite.restorable && !p.freedBefore && !p.freedAfter), 'one of them in use with no accepted copy');
});
