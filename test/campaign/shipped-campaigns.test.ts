import t from 'tap';
import { loadCampaign } from '../../rig/campaign/load-campaign.js';
import { planCycles } from '../../rig/campaign/plan-cycles.js';

t.test('campaigns/quick.yml: the three headline scenarios, 3 cycles each, small dataset', async (t) => {
  const c = await loadCampaign('campaigns/quick.yml');
  t.same(c.scenarios.map((s) => [s.settings.name, s.settings.server.doublewrite, s.settings.disk.atomicUnit, s.settings.disk.fs, s.settings.expect, s.cycles]), [
    ['dw-on-atomic4k', true, 4096, 'ext4', 'recovers', 3],
    ['dw-off-atomic16k-bigalloc', false, 16384, 'ext4-bigalloc16k', 'never-torn', 3],
    ['dw-off-atomic4k', false, 4096, 'ext4', 'torn-reproduced', 3],
  ]);
  for (const s of c.scenarios) {
    t.same([s.settings.load.tables, s.settings.load.rows, s.settings.server.bufferPool], [4, 10000, '64M']);
  }
});

t.test('campaigns/torn-pages.yml: atomic 16k with doublewrite off on five filesystems of DESIGN.md\'s alignment table', async (t) => {
  const c = await loadCampaign('campaigns/torn-pages.yml');
  const atomic16k = c.scenarios.filter((s) => !s.settings.server.doublewrite && s.settings.disk.atomicUnit === 16384);
  t.same(atomic16k.map((s) => s.settings.disk.fs).sort(), ['ext4', 'ext4-bigalloc16k', 'xfs-bs16k', 'xfs-extsize16k', 'xfs-su16k']);
  for (const s of atomic16k) {
    const aligned = ['ext4-bigalloc16k', 'xfs-su16k', 'xfs-bs16k'].includes(s.settings.disk.fs);
    t.equal(s.settings.expect, aligned ? 'never-torn' : 'torn-reproduced', s.settings.name);
  }
  t.ok(c.scenarios.some((s) => s.settings.server.doublewrite && s.settings.expect === 'recovers'), 'the doublewrite headline');
});

t.test('campaigns/nightly.yml: page sizes, flush methods and filesystems', async (t) => {
  const c = await loadCampaign('campaigns/nightly.yml');
  const values = (pick: (s: (typeof c.scenarios)[number]) => unknown) => new Set(c.scenarios.map(pick));
  t.same([...values((s) => s.settings.server.pageSize)].sort((a, b) => Number(a) - Number(b)), [4096, 8192, 16384, 32768, 65536]);
  t.equal(values((s) => s.settings.server.flushMethod).size, 4);
  t.equal(values((s) => s.settings.disk.fs).size, 5);
  t.same([...values((s) => s.settings.expect)].sort(), ['never-torn', 'recovers', 'torn-reproduced']);
  t.ok(planCycles(c).length >= 300, `${planCycles(c).length} cycles`);
});
