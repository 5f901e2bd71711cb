import t from 'tap';
import { parseCampaign } from '../../rig/campaign/load-campaign.js';
import { MAX_LANES, parseCyclesOption, parseLanesOption, parseSeedOption } from '../../rig/campaign/parse-overrides.js';
import { cycleId, planCycles } from '../../rig/campaign/plan-cycles.js';
import { countByScenario, parseShard, selectShard } from '../../rig/campaign/shard.js';

const campaign = parseCampaign(
  'name: c\nseed: 5\nscenarios:\n  - {name: a, cycles: 4}\n  - {name: b, cycles: 3}\n  - {name: c, cycles: 3}\n',
  'c.yml',
);

t.test('the plan lists scenarios in file order, cycles 1..N, with their seeds', async (t) => {
  const plan = planCycles(campaign);
  t.same(plan.map((c) => c.id), ['a-1', 'a-2', 'a-3', 'a-4', 'b-1', 'b-2', 'b-3', 'c-1', 'c-2', 'c-3']);
  t.same(plan.map((c) => c.position), [...plan.keys()]);
  t.same(plan.filter((c) => c.scenario === 'b').map((c) => c.seed), campaign.scenarios[1]!.seeds);
  t.equal(cycleId('x-1', 2), 'x-1-2');
});

t.test('shards 1/3, 2/3 and 3/3 cover every cycle exactly once, with the same seeds', async (t) => {
  const plan = planCycles(campaign);
  const shards = [1, 2, 3].map((i) => selectShard(plan, parseShard(`${i}/3`)));
  const union = shards.flat().sort((x, y) => x.position - y.position);
  t.same(union, plan, 'every cycle once, unchanged');
  t.same(shards.map((s) => s.length), [4, 3, 3], 'balanced to within one cycle');
  t.same(shards.map((s) => [...countByScenario(s).keys()].sort()), [['a', 'b', 'c'], ['a', 'b', 'c'], ['a', 'b', 'c']], 'every shard gets a share of each scenario');
  const replanned = planCycles(parseCampaign('name: c\nseed: 5\nscenarios:\n  - {name: a, cycles: 4}\n  - {name: b, cycles: 3}\n  - {name: c, cycles: 3}\n', 'c.yml'));
  t.same(selectShard(replanned, { index: 2, count: 3 }), shards[1], 'a shard run elsewhere picks the same cycles and seeds');
  t.same(selectShard(plan, null), plan, 'no shard: everything');
  t.same(selectShard(plan, parseShard('1/1')), plan);
});

t.test('more shards than cycles leaves some shards empty, still covering everything once', async (t) => {
  const plan = planCycles(campaign);
  const shards = Array.from({ length: 12 }, (_, i) => selectShard(plan, { index: i + 1, count: 12 }));
  t.equal(shards.flat().length, plan.length);
  t.equal(new Set(shards.flat().map((c) => c.id)).size, plan.length);
});

const badShards: [string, RegExp][] = [
  ['0/3', /shard 0 of 3 does not exist/],
  ['4/3', /shard 4 of 3 does not exist/],
  ['1/0', /0 shards is out of range/],
  ['2', /'2' is not I\/N/],
  ['a/b', /'a\/b' is not I\/N/],
  ['1/3/4', /is not I\/N/],
  ['-1/3', /is not I\/N/],
];
for (const [text, message] of badShards) {
  t.test(`--shard ${text} is bad input`, async (t) => {
    t.throws(() => parseShard(text), { code: 'bad-input', message });
  });
}

t.test('--cycles, --seed and --lanes parse whole numbers and reject the rest', async (t) => {
  t.equal(parseCyclesOption('12'), 12);
  t.equal(parseSeedOption('0'), 0);
  t.equal(parseLanesOption('1'), 1);
  t.equal(parseLanesOption(String(MAX_LANES)), MAX_LANES);
  for (const bad of ['0', String(MAX_LANES + 1), '-2', '2.5', 'two', '']) {
    t.throws(() => parseLanesOption(bad), { code: 'bad-input', message: new RegExp(`^--lanes: '${bad}' is not a number of states to judge at once; use a whole number from 1 to ${MAX_LANES}$`) });
  }
  for (const bad of ['0', '-1', '1.5', 'x', '']) t.throws(() => parseCyclesOption(bad), { code: 'bad-input', message: /^--cycles: / });
  for (const bad of ['-1', '1e3', 'x', '99999999999999999999']) t.throws(() => parseSeedOption(bad), { code: 'bad-input', message: /^--seed: / });
});
