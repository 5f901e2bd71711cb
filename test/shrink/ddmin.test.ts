/**
 * ddmin (rig/shrink/ddmin.ts) against failures whose causes are known: the result fails, is
 * 1-minimal (no subset one item smaller fails), keeps the items' order, and the search is
 * deterministic; a bound or an abort stops it with the best subset so far. Seeded cases print
 * their seed; `DDMIN_SEED=N` replays one.
 */
import t from 'tap';
import { ddmin } from '../../rig/shrink/ddmin.js';
import { createRng } from '../../faults/prng.js';

/** Fails when every item of one of the causes (sets of items) is present. */
const failsWith = (causes: number[][]) => async (subset: number[]) => causes.some((c) => c.every((x) => subset.includes(x)));

async function oneMinimal(result: number[], fails: (s: number[]) => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < result.length; i++) if (await fails(result.filter((_, k) => k !== i))) return false;
  return true;
}

t.test('one cause among a hundred items: exactly its items, in order', async (t) => {
  const items = Array.from({ length: 100 }, (_, i) => i);
  const out = await ddmin(items, failsWith([[71, 12, 40]]));
  t.same(out.result, [12, 40, 71]);
  t.equal(out.minimal, true);
  t.equal(out.stopped, null);
  t.comment(`${out.tests} tests`);
});

const SEEDS = process.env.DDMIN_SEED ? [Number(process.env.DDMIN_SEED)] : Array.from({ length: 200 }, (_, i) => i + 1);
t.test('seeded: random causes over random item counts; the result fails and is 1-minimal', async (t) => {
  let failures = 0;
  for (const seed of SEEDS) {
    const rng = createRng(seed);
    const n = 1 + rng.int(80);
    const items = Array.from({ length: n }, (_, i) => i * 3);
    const causes = Array.from({ length: 1 + rng.int(3) }, () => [...new Set(Array.from({ length: 1 + rng.int(4) }, () => items[rng.int(n)]!))]);
    const fails = failsWith(causes);
    const out = await ddmin(items, fails);
    const ok = (await fails(out.result)) && (await oneMinimal(out.result, fails)) && out.result.every((x, i) => i === 0 || out.result[i - 1]! < x);
    const again = await ddmin(items, fails);
    if (!ok || JSON.stringify(again) !== JSON.stringify(out)) {
      failures += 1;
      t.fail(`seed ${seed}: causes ${JSON.stringify(causes)} gave ${JSON.stringify(out)}`);
    }
  }
  t.equal(failures, 0, `${SEEDS.length} seeded searches`);
});

t.test('a bound on the tests, or an abort, stops with the smallest failing subset so far', async (t) => {
  const items = Array.from({ length: 64 }, (_, i) => i);
  const seen: number[] = [];
  const bounded = await ddmin(items, failsWith([[3, 50]]), { maxTests: 4, onSmaller: (s) => seen.push(s.length) });
  t.equal(bounded.stopped, 'bound');
  t.equal(bounded.tests, 4);
  t.notOk(bounded.minimal);
  t.ok(await failsWith([[3, 50]])(bounded.result), 'what it returns still fails');
  t.same(seen, [...seen].sort((a, b) => b - a), 'each smaller than the last');
  const controller = new AbortController();
  let calls = 0;
  const aborted = await ddmin(items, async (s) => {
    if (++calls === 3) controller.abort();
    return failsWith([[3, 50]])(s);
  }, { signal: controller.signal });
  t.equal(aborted.stopped, 'signal');
  t.equal(aborted.tests, 3);
});
