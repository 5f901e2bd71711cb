/**
 * The load mix and the lifecycle kinds without a server: the weighted choice of kinds (seeded),
 * the mix's three spellings and how they resolve, the client-side ledger of steps, what a table's
 * state after recovery says about its steps, and each kind's steps walked from absent for many
 * seeds against what the kind promises (its caps, its partitions, one statement per step).
 */
import t from 'tap';
import { createRng } from '../../faults/prng.js';
import { parseCampaign } from '../../rig/campaign/load-campaign.js';
import { checkLoadMix } from '../../rig/campaign/load-mix-field.js';
import { judgeTableSteps } from '../../rig/checks/lifecycle-outcome.js';
import { AckedSteps } from '../../rig/load/lifecycle/acked-steps.js';
import { LIFECYCLE_KINDS } from '../../rig/load/lifecycle/kinds.js';
import { pickWeighted } from '../../rig/load/lifecycle/lifecycle-step.js';
import { signature, totalRows, type ObjectState } from '../../rig/load/lifecycle/table-state.js';
import { isDefaultMix, lifecycleKinds, pickKind, showMix } from '../../rig/load/load-mix.js';
import type { LoadKind } from '../../rig/results/load-kinds.js';

t.test('pickKind draws kinds in proportion to their weights, the same for the same seed', async (t) => {
  const mix = { 'write-only': 6, churn: 2, bulk: 1, alter: 0 };
  const draw = (seed: number) => Array.from({ length: 9000 }, ((rng) => () => pickKind(mix, rng))(createRng(seed)));
  const kinds = draw(11);
  t.same(draw(11), kinds, 'same seed, same sequence');
  const count = (k: LoadKind) => kinds.filter((x) => x === k).length;
  t.ok(Math.abs(count('write-only') - 6000) < 300, `write-only ${count('write-only')} of 9000 (6000 expected)`);
  t.ok(Math.abs(count('churn') - 2000) < 200, `churn ${count('churn')} (2000 expected)`);
  t.ok(Math.abs(count('bulk') - 1000) < 150, `bulk ${count('bulk')} (1000 expected)`);
  t.equal(count('alter'), 0, 'a weight of 0 never runs');
});

t.test('a mix of one kind draws nothing from the generator', async (t) => {
  const rng = createRng(3);
  const fresh = createRng(3);
  for (let i = 0; i < 10; i++) t.equal(pickKind({ 'write-only': 1 }, rng), 'write-only');
  t.equal(rng.next(), fresh.next(), 'the generator is where it started: the default load chooses as it always did');
  t.throws(() => pickKind({ churn: 0 }, rng), /positive weight/);
  t.ok(isDefaultMix(undefined) && isDefaultMix({ 'write-only': 3 }) && !isDefaultMix({ 'write-only': 1, churn: 1 }));
  t.same(lifecycleKinds({ bulk: 1, 'write-only': 2, churn: 1 }), ['churn', 'bulk'], 'lifecycle kinds, in their fixed order');
  t.equal(showMix({ churn: 1, 'write-only': 4 }), 'write-only 4, churn 1');
});

t.test('the mix is spelled as a list, as weights, or as command-line text', async (t) => {
  t.same(checkLoadMix(['write-only', 'churn']), { ok: true, value: { 'write-only': 1, churn: 1 } });
  t.same(checkLoadMix({ 'write-only': 4, partitions: 0.5 }), { ok: true, value: { 'write-only': 4, partitions: 0.5 } });
  t.same(checkLoadMix('write-only=4, alter=1,bulk'), { ok: true, value: { 'write-only': 4, alter: 1, bulk: 1 } });
  t.same(checkLoadMix('churn'), { ok: true, value: { churn: 1 } });
  t.match(checkLoadMix('write-only=lots'), { ok: false, problem: "write-only: 'lots' is not a weight" });
  t.match(checkLoadMix('write-only,altr'), { ok: false, problem: "'altr' is not a load kind; did you mean alter?" });
  t.match(checkLoadMix(''), { ok: false, problem: 'an empty mix runs nothing' });
});

t.test('a campaign sets the mix per scenario or in defaults; without one the settings are as before', async (t) => {
  const c = parseCampaign(
    'name: x\ndefaults: {load: {mix: {write-only: 8, churn: 1}}}\nscenarios:\n  - name: a\n  - name: b\n    load: {mix: [bulk]}\n',
    'x.yml',
  );
  t.same(c.scenarios.map((s) => s.settings.load.mix), [{ 'write-only': 8, churn: 1 }, { bulk: 1 }], 'a scenario\'s mix replaces the default\'s');
  const plain = parseCampaign('name: x\nscenarios:\n  - name: a\n', 'x.yml');
  t.notOk('mix' in plain.scenarios[0]!.settings.load, 'no mix named: no mix in the settings (write-only alone)');
});

t.test('the ledger of steps: sent, acknowledged, refused', async (t) => {
  const steps = new AckedSteps();
  steps.track('churn_c1_t1', 'churn', 1, 'absent');
  steps.send('churn_c1_t1', 'empty; indexes k');
  t.throws(() => steps.send('churn_c1_t1', 'x'), /another is in flight/);
  steps.ack('churn_c1_t1');
  steps.send('churn_c1_t1', 'ids 1..50; indexes k');
  steps.refused('churn_c1_t1');
  steps.send('churn_c1_t1', 'ids 1..60; indexes k');
  t.throws(() => steps.ack('alter_c1'), /not tracked/);
  const snap = steps.snapshot();
  t.same(snap, { acked: 1, tables: [{ table: 'churn_c1_t1', kind: 'churn', client: 1, history: ['absent', 'empty; indexes k'], inFlight: 'ids 1..60; indexes k' }] });
  steps.ack('churn_c1_t1');
  t.equal(snap.tables[0]!.history.length, 2, 'a snapshot does not change with the ledger');
  t.throws(() => steps.ack('churn_c1_t1'), /never sent/);
});

t.test('a table after recovery: held, steps undone, or a state no step left', async (t) => {
  const table = { table: 't', kind: 'churn' as const, client: 1, history: ['absent', 'empty; indexes k', 'ids 1..50; indexes k', 'absent', 'empty; indexes k'], inFlight: 'ids 1..70; indexes k' };
  t.same(judgeTableSteps(table, 'empty; indexes k'), { kind: 'held' }, 'the last acknowledged state');
  t.same(judgeTableSteps(table, 'ids 1..70; indexes k'), { kind: 'held' }, 'the state the step in flight leaves');
  t.match(judgeTableSteps(table, 'absent'), { kind: 'lost', steps: 1 }, 'the latest earlier match counts the fewest steps undone');
  t.match(judgeTableSteps(table, 'ids 1..50; indexes k'), { kind: 'lost', steps: 2, line: /^t: holds "ids 1..50; indexes k", as before its last 2 acknowledged steps/ });
  t.match(judgeTableSteps(table, 'ids 1..20; indexes k'), { kind: 'unexplained', line: /a state none of its steps left \(the last acknowledged left "empty; indexes k"; in flight: "ids 1..70; indexes k"\)/ });
  t.same(judgeTableSteps({ ...table, inFlight: null }, 'ids 1..70; indexes k').kind, 'unexplained', 'without a step in flight, only the acknowledged state holds');
});

t.test('weighted steps: only options with weight, in proportion', async (t) => {
  const rng = createRng(4);
  const picks = Array.from({ length: 3000 }, () => pickWeighted<string>([[0, () => 'never'], [1, () => 'a'], [2, () => 'b']], rng));
  t.notOk(picks.includes('never'));
  t.ok(Math.abs(picks.filter((p) => p === 'b').length - 2000) < 150);
  t.throws(() => pickWeighted([[0, () => 1]], rng), /no step is possible/);
});

/** Walks a kind's steps from absent, applying each step's next state, checking what the kind promises. */
for (const [name, kind] of Object.entries(LIFECYCLE_KINDS)) {
  // a bulk step makes ~2000 wide rows: fewer of them walk its whole cycle (full, then truncate or drop)
  const [seeds, steps] = name === 'bulk' ? [4, 16] : [10, 300];
  t.test(`${name}: ${steps} steps from ${kind.prepared ? 'its prepared state' : 'absent'}, for ${seeds} seeds, keep what the kind promises`, async (t) => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= seeds; seed++) {
      const rng = createRng(seed);
      const tables = kind.tables(3);
      if (!tables.every((x) => x.includes('_c3'))) t.fail(`tables of client 3 are its own: ${tables.join(', ')}`);
      const start = (x: string): ObjectState => (kind.prepared ? kind.prepared(x).next : null);
      const states = new Map<string, ObjectState>(tables.map((x) => [x, start(x)]));
      for (let i = 0; i < steps; i++) {
        const table = tables[rng.int(tables.length)]!;
        const step = kind.nextStep(table, states.get(table)!, rng);
        seen.add(step.what.replace(/\d+/g, 'N'));
        if (!/^(CREATE|INSERT|TRUNCATE|DROP|ALTER) /.test(step.sql) || step.sql.includes(';')) {
          t.fail(`seed ${seed}: one statement per step: ${step.sql.slice(0, 80)}`);
          return;
        }
        if (!new RegExp(`(^| )${table}( |$)`).test(step.sql)) t.fail(`seed ${seed}: the step names its table: ${step.sql.slice(0, 80)}`);
        const next = step.next;
        if (kind.prepared && next === null) {
          t.fail(`seed ${seed}: a table of the prepared image is never dropped by the load (${step.what})`);
          return;
        }
        if (next) {
          const problem = checkPromise(name, next);
          if (problem) {
            t.fail(`seed ${seed}, step ${i} (${step.what}): ${problem}: ${signature(next)}`);
            return;
          }
        }
        if (step.values) {
          const rows = (step.values[0] as unknown[][]).length;
          const before = states.get(table) ? totalRows(states.get(table)!) : 0;
          if (totalRows(next!) !== before + rows) t.fail(`seed ${seed}: an insert adds the rows it sends (${step.what})`);
        }
        states.set(table, next);
      }
    }
    t.comment(`steps seen: ${[...seen].sort().join('; ')}`);
    if (kind.prepared) {
      t.notOk(seen.has('create'), 'the prepared image creates the table, never the load');
      t.throws(() => kind.nextStep(tables1(kind), null, createRng(1)), /prepared image/);
    } else t.ok(seen.has('create'), 'tables are created');
    t.ok(seen.size >= (name === 'partition-truncate' ? 2 : 4), `every kind of step was taken (${seen.size})`);
  });
}

const tables1 = (kind: { tables(client: number): string[] }) => kind.tables(1)[0]!;

const MAX_ROWS: Record<string, number> = { churn: 1500, alter: 800, bulk: 12_000, 'survey-bait': 3000 };

/** A state the kind must never reach, or null. */
function checkPromise(kind: string, state: NonNullable<ObjectState>): string | null {
  if (kind === 'partitions' || kind === 'partition-truncate') {
    if (state.parts.length < 1 || state.parts.length > 6) return `${state.parts.length} partitions`;
    if (kind === 'partition-truncate' && state.parts.map((p) => p.name).join() !== 'p0,p1,p2,p3') return 'its partitions changed';
    if (state.parts.some((p) => p.rows > 500 || (p.first - 1) % 1000 !== 0 || p.name !== `p${(p.first - 1) / 1000}`)) return 'a partition out of its range';
    const names = state.parts.map((p) => p.name);
    if (new Set(names).size !== names.length) return 'a partition named twice';
    const firsts = state.parts.map((p) => p.first);
    if (firsts.some((f, i) => i > 0 && f <= firsts[i - 1]!)) return 'partitions out of order';
    return null;
  }
  if (state.parts.length !== 1 || state.parts[0]!.first !== 1) return 'not one part starting at id 1';
  if (totalRows(state) > MAX_ROWS[kind]!) return `more than ${MAX_ROWS[kind]} rows`;
  return null;
}
