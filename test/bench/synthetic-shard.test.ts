import t from 'tap';
import { generateShard } from '../../bench/synthetic-campaign.js';

t.test('the shards of a generated campaign are disjoint, make every cycle once, each in the campaign order', async (t) => {
  const count = 8;
  const shards = [];
  for (let index = 1; index <= count; index++) shards.push((await generateShard({ cycles: 100, preset: 'torn-pages', shard: { index, count } })).results);
  const ids = shards.flatMap((s) => s.cycles.map((c) => c.id));
  t.equal(ids.length, 100);
  t.equal(new Set(ids).size, 100, 'no cycle in two shards');
  const names = shards[0]!.scenarios.map((s) => s.name);
  t.equal(names.length, 7);
  for (const shard of shards) {
    t.same(shard.scenarios.map((s) => s.name), names, `shard ${shard.shard!.index} lists every scenario`);
    const keys = shard.cycles.map((c) => [names.indexOf(c.scenario), c.cycle] as const);
    t.ok(keys.every((k, i) => i === 0 || k[0] > keys[i - 1]![0] || (k[0] === keys[i - 1]![0] && k[1] > keys[i - 1]![1])), 'in the campaign order');
    t.same(shard.shard, { index: shard.shard!.index, count });
  }
  const again = (await generateShard({ cycles: 100, preset: 'torn-pages', shard: { index: 3, count } })).results;
  t.same(again.cycles.map((c) => c.seed), shards[2]!.cycles.map((c) => c.seed), 'seeded: the same shard twice is the same');
});
