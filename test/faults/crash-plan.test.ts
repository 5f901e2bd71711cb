/**
 * makePlan (faults/crash-plan.ts), seeded property tests over random writes, atomic units and
 * policies. A failure names its seed; `PLAN_SEED=N` replays that one seed.
 */
import t from 'tap';
import { makePlan, unitSpan, type FatePolicy } from '../../faults/crash-plan.js';
import { createRng, type Rng } from '../../faults/prng.js';
import { ATOMIC_UNITS } from '../../faults/sizes.js';

const SEEDS = process.env.PLAN_SEED ? [Number(process.env.PLAN_SEED)] : Array.from({ length: 400 }, (_, i) => i + 1);

interface Case {
  unit: number;
  policy: FatePolicy;
  writes: { seq: number; offset: number; length: number }[];
}

/** Writes of every shape the disk sees: sector-sized to 1 MiB, aligned or not, to a 4 MiB device. */
function randomCase(rng: Rng): Case {
  const unit = ATOMIC_UNITS[rng.int(ATOMIC_UNITS.length)]!;
  const policy = { land: rng.int(4), drop: rng.int(4), tear: rng.int(4) };
  if (policy.land + policy.drop + policy.tear === 0) policy.land = 1;
  const writes = Array.from({ length: 1 + rng.int(40) }, (_, i) => {
    const length = rng.next() < 0.5 ? [512, 4096, 8192, 16384, 65536][rng.int(5)]! : 512 * (1 + rng.int(2048));
    const offset = rng.next() < 0.5 ? length * rng.int(64) : 512 * rng.int(8192);
    return { seq: 10 + i, offset, length };
  });
  return { unit, policy, writes };
}

/** The units a write touches, by walking the device unit by unit. */
function unitsTouched(offset: number, length: number, unit: number): { first: number; count: number } {
  let first = -1, count = 0;
  for (let k = Math.floor(offset / unit) - 1; k * unit < offset + length; k++) {
    if (k >= 0 && (k + 1) * unit > offset) {
      if (first < 0) first = k;
      count++;
    }
  }
  return { first, count };
}

/** Everything a plan must hold for its case, or what it broke. */
const seen = { writes: 0, torn: 0, singleUnit: 0, misaligned: 0 };

function violation(seed: number): string | null {
  const c = randomCase(createRng(seed * 7919));
  const plan = makePlan(c.writes, seed, c.unit, c.policy);
  if (JSON.stringify(makePlan(c.writes, seed, c.unit, c.policy)) !== JSON.stringify(plan)) return 'same seed, another plan';
  if (plan.writes.length !== c.writes.length) return `${plan.writes.length} fates for ${c.writes.length} writes`;
  for (const [i, w] of plan.writes.entries()) {
    const at = `write ${i} (${w.length} B at ${w.offset}, unit ${c.unit})`;
    seen.writes++;
    seen.torn += Number(w.fate === 'torn');
    seen.singleUnit += Number(w.units === 1);
    seen.misaligned += Number(w.offset % c.unit !== 0);
    const span = unitSpan(w.offset, w.length, c.unit);
    const touched = unitsTouched(w.offset, w.length, c.unit);
    if (span.first !== touched.first || span.count !== touched.count) return `${at}: unitSpan ${JSON.stringify(span)}, touched ${JSON.stringify(touched)}`;
    if (w.units !== span.count || w.seq !== c.writes[i]!.seq) return `${at}: the plan says ${w.units} units, seq ${w.seq}`;
    const landed = w.unitsLanded;
    const inOrder = landed.every((u, j) => Number.isInteger(u) && u >= 0 && u < w.units && (j === 0 || u > landed[j - 1]!));
    if (!inOrder) return `${at}: units landed ${JSON.stringify(landed)} are not distinct units in order`;
    if (w.fate === 'landed' && landed.length !== w.units) return `${at}: landed with ${landed.length} of ${w.units} units`;
    if (w.fate === 'dropped' && landed.length !== 0) return `${at}: dropped with units landed`;
    if (w.fate === 'torn' && w.units === 1) return `${at}: one atomic unit, yet torn`;
    if (w.fate === 'torn' && (landed.length === 0 || landed.length === w.units)) return `${at}: torn with ${landed.length} of ${w.units} units`;
    if (w.fate === 'torn' && c.policy.tear === 0) return `${at}: torn under a policy with tear 0`;
  }
  return null;
}

t.test(`plans hold their properties (${SEEDS.length} seeds)`, async (t) => {
  const failed = SEEDS.map((seed) => [seed, violation(seed)] as const).filter(([, v]) => v !== null);
  t.same(failed.map(([seed, v]) => `seed ${seed}: ${v} (replay: PLAN_SEED=${seed})`), [],
    `${seen.writes} writes: ${seen.torn} torn, ${seen.singleUnit} of one unit, ${seen.misaligned} not unit-aligned`);
});

t.test('a 16 KiB write tears at 4k only when it covers more than one unit', async (t) => {
  const tearAlways = { land: 0, drop: 0, tear: 1 };
  const aligned = makePlan([{ seq: 1, offset: 32768, length: 16384 }], 1, 16384, tearAlways).writes[0]!;
  t.equal(aligned.units, 1);
  t.not(aligned.fate, 'torn', `one 16k unit cannot tear, even when tearing is all the policy allows (${aligned.fate})`);
  const misaligned = makePlan([{ seq: 1, offset: 36864, length: 16384 }], 1, 16384, tearAlways).writes[0]!;
  t.match(misaligned, { units: 2, fate: 'torn' }, 'at a 4k offset it spans two 16k units and tears');
  t.equal(misaligned.unitsLanded.length, 1);
  t.same(unitSpan(36864, 16384, 16384), { first: 2, count: 2 });
  t.same(unitSpan(512, 512, 4096), { first: 0, count: 1 }, 'a sector inside a unit');
  t.same(unitSpan(4095, 2, 4096), { first: 0, count: 2 }, 'two bytes across a boundary');
});

t.test('policy weights are respected, roughly', async (t) => {
  // 16 KiB writes at 4k: four units each, so every fate is open to every write
  const writes = Array.from({ length: 6000 }, (_, i) => ({ seq: i, offset: 16384 * i, length: 16384 }));
  const cases: [FatePolicy, Record<string, number>][] = [
    [{ land: 1, drop: 1, tear: 2 }, { landed: 0.25, dropped: 0.25, torn: 0.5 }],
    [{ land: 0.35, drop: 0.3, tear: 0.35 }, { landed: 0.35, dropped: 0.3, torn: 0.35 }],
    [{ land: 3, drop: 1, tear: 0 }, { landed: 0.75, dropped: 0.25, torn: 0 }],
    [{ land: 0, drop: 0, tear: 1 }, { landed: 0, dropped: 0, torn: 1 }],
  ];
  for (const [policy, want] of cases) {
    const plan = makePlan(writes, 99, 4096, policy);
    for (const fate of ['landed', 'dropped', 'torn'] as const) {
      const share = plan.writes.filter((w) => w.fate === fate).length / writes.length;
      t.ok(Math.abs(share - want[fate]!) < 0.03, `${JSON.stringify(policy)}: ${fate} ${(100 * share).toFixed(1)}% (want ${100 * want[fate]!}%)`);
    }
  }
  const tornKinds = makePlan(writes, 5, 4096, { land: 0, drop: 0, tear: 1 }).writes;
  const prefixes = tornKinds.filter((w) => w.unitsLanded.every((u, i) => u === i)).length;
  // half are prefixes by choice, and 3 of the 14 proper subsets of 4 units are prefixes too: 61%
  t.ok(Math.abs(prefixes / writes.length - 0.607) < 0.03, `tears that are prefixes: ${prefixes} of ${writes.length}`);
});
