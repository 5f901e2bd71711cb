/**
 * `make test-dm`: the three headline scenarios (campaigns/quick.yml) give the same verdict classes
 * on the dm backend, in the guest, as on the FUSE disk, on the host: doublewrite restores (or hits
 * the written-up page 0 finding), 16 KiB atomic writes never tear, and the negative control tears.
 * One cycle each: a scenario holds, is vacuous or blind, or fails, on both the same way.
 */
import t from 'tap';
import { loadResults } from '../../../rig/results/load-results.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CampaignResults } from '../../../rig/results/types.js';
import { ensureBuilt, RIG_MAIN, rig } from '../../fixtures/rig-cli.js';

const CAMPAIGN = resolve('campaigns/quick.yml');
const shared = mkdtempSync(join(tmpdir(), 'rig-dm-headline-'));
t.teardown(() => rmSync(shared, { recursive: true, force: true }));
t.before(ensureBuilt);

type Class = { scenario: string; held: boolean; vacuous: boolean; blind: boolean; verdicts: string[] };

async function classes(dir: string): Promise<Class[]> {
  const results = (await loadResults(join(dir, 'results.json'))).results;
  return results.scenarios.map((s) => ({ scenario: s.name, held: s.held, vacuous: s.vacuous ?? false, blind: s.blind, verdicts: Object.keys(s.verdictCounts).sort() }));
}

t.test('quick.yml, one cycle a scenario, on fuse and on dm', async (t) => {
  let started = Date.now();
  const fuse = await rig(['campaign', CAMPAIGN, '--cycles', '1', '--out', join(shared, 'fuse')]);
  t.comment(`fuse on the host: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  t.equal(fuse.exitCode, 0, fuse.stderr.split('\n').slice(-4).join('\n'));
  started = Date.now();
  const dm = await rig(['vm', 'run', '--memory', '3G', '--timeout', '2400', '--dir', shared, '--',
    'node', RIG_MAIN, 'campaign', CAMPAIGN, '--backend', 'dm', '--cycles', '1', '--out', join(shared, 'dm')], {}, { timeout: 2_500_000 });
  t.comment(`dm in the guest: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  t.equal(dm.exitCode, 0, dm.stderr.split('\n').slice(-4).join('\n'));
  const [onFuse, onDm] = [await classes(join(shared, 'fuse')), await classes(join(shared, 'dm'))];
  t.comment(`fuse: ${JSON.stringify(onFuse)}`);
  t.comment(`dm:   ${JSON.stringify(onDm)}`);
  const cls = (c: Class) => ({ scenario: c.scenario, held: c.held, vacuous: c.vacuous, blind: c.blind });
  t.same(onDm.map(cls), onFuse.map(cls), 'each scenario holds (or not) the same way on both');
  t.ok(onDm.every((c) => c.held && !c.vacuous && !c.blind), 'and every one holds, exercised');
  const dmRecords = (await loadResults(join(shared, 'dm', 'results.json'))).results;
  t.ok(dmRecords.cycles.every((c) => c.settings.disk.backend === 'dm'), 'the guest cycles ran on dm');
});
