/**
 * `rig merge` interrupted: it stops where it is, leaves no temporary file, and removes the OUT
 * folder it made (one it did not make stays, with the files the merge finished). The merge itself is
 * test/results/merge.test.ts and, of a real campaign's shards, test/campaign/run-campaign.int.test.ts.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { generateShard, writeCampaign } from '../../../bench/synthetic-campaign.js';
import { ensureBuilt, rig, showedWhileRunning } from '../../fixtures/rig-cli.js';

const dir = t.testdir({});
const shards = [1, 2].map((index) => join(dir, `shard-${index}`));

t.before(async () => {
  await ensureBuilt();
  for (const [i, shard] of shards.entries()) {
    await writeCampaign(shard, await generateShard({ cycles: 6000, preset: 'torn-pages', shard: { index: i + 1, count: 2 } }));
  }
});

t.test('SIGINT while the records are merged: no OUT, no temporary file', async (t) => {
  const out = join(dir, 'merged');
  const child = rig(['merge', out, ...shards]);
  // the records go to a temporary file in OUT, renamed into place once all are written
  t.ok(await showedWhileRunning(child, out, '.cycles.jsonl.'), 'the records file was being written');
  child.kill('SIGINT');
  const ended = await child;
  t.equal(ended.signal, 'SIGINT', `the run ends by the re-raised signal (${ended.stderr.trim()})`);
  t.equal(ended.stdout, '', 'no summary of a merge that did not finish');
  t.notOk(existsSync(out), 'the OUT it made, removed');
  t.same(readdirSync(dir).sort(), ['shard-1', 'shard-2'], 'nothing beside the shards');
});

t.test('an OUT that was there stays, with no temporary file in it', async (t) => {
  const out = join(dir, 'kept');
  mkdirSync(out);
  const child = rig(['merge', out, ...shards]);
  t.ok(await showedWhileRunning(child, out, '.cycles.jsonl.'), 'the records file was being written');
  child.kill('SIGINT');
  const ended = await child;
  t.equal(ended.signal, 'SIGINT');
  t.ok(existsSync(out), 'the folder stays');
  // what the merge finished before the interrupt (each file written whole) may be there
  t.same(readdirSync(out).filter((f) => f.startsWith('.')), [], 'no temporary file');
});
