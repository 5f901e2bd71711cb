import t from 'tap';
import { loadCampaign } from '../../rig/campaign/load-campaign.js';
import { planCycles } from '../../rig/campaign/plan-cycles.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FINDING_IDS } from '../../rig/results/finding-ids.js';

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

t.test('campaigns/torn-pages.yml: atomic 16k with doublewrite off on five filesystems of the alignment list in docs/design.md', async (t) => {
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

t.test('campaigns/mariadb-11.8.yml: MariaDB 11.8 in its offline image, doublewrite on/fast/off', async (t) => {
  const c = await loadCampaign('campaigns/mariadb-11.8.yml');
  t.same(c.scenarios.map((s) => [s.settings.name, s.settings.server.doublewrite, s.settings.server.flushMethod, s.settings.expect, s.cycles]), [
    ['dw-on-o-direct-no-fsync', true, 'O_DIRECT_NO_FSYNC', 'recovers', 6],
    ['dw-fast', 'fast', 'O_DIRECT', 'recovers', 6],
    ['dw-on-atomic4k', true, 'O_DIRECT', 'recovers', 6],
    ['dw-off-atomic4k', false, 'O_DIRECT', 'torn-reproduced', 4],
  ]);
  for (const s of c.scenarios) {
    t.same([s.settings.runtime, s.settings.image, s.settings.disk.atomicUnit, s.settings.disk.fs], ['docker', 'powercut-rig/mariadb-offline:11.8', 4096, 'ext4']);
  }
});

t.test('every campaign file in campaigns/ loads', async (t) => {
  const files = readdirSync('campaigns').filter((f) => f.endsWith('.yml'));
  t.ok(files.length >= 5);
  for (const f of files) t.ok((await loadCampaign(join('campaigns', f))).scenarios.length > 0, f);
});

t.test('campaigns/findings.yml: one scenario hunting each written-up finding', async (t) => {
  const c = await loadCampaign('campaigns/findings.yml');
  const hunted = new Set(c.scenarios.flatMap((s) => s.settings.findings ?? []));
  t.same([...FINDING_IDS].filter((id) => !hunted.has(id)), [], 'no finding without a hunt');
  for (const s of c.scenarios) t.ok(s.settings.findings?.length, `${s.settings.name} names what it hunts`);
  const odnf = c.scenarios.find((s) => s.settings.name === 'o-direct-no-fsync')!;
  t.same(odnf.settings.disk.trigger, { kind: 'after-writes', writes: 400 }, 'not the armed cut, which aims past unflushed copies');
  const mysql = c.scenarios.find((s) => s.settings.name === 'mysql-o-direct-dblwr')!;
  t.same([mysql.settings.runtime, mysql.settings.image, mysql.settings.disk.trigger], ['docker', 'powercut-rig/mysql-offline:9.7', { kind: 'after-writes', writes: 400 }], 'MySQL in its offline image, cut after a count of writes');
  const survey = c.scenarios.find((s) => s.settings.name === 'mysql-page0-survey')!;
  t.same([survey.settings.image, survey.settings.explore, survey.cycles], ['powercut-rig/mysql-offline:9.7', { states: 20, pick: 'targeted' }, 4], 'the page-0 survey is hunted by exploring');
  const stale = c.scenarios.find((s) => s.settings.name === 'mysql-stale-dblwr-copy')!;
  t.same([stale.settings.image, stale.settings.explore, stale.settings.server.bufferPool], ['powercut-rig/mysql-offline:9.7', { states: 20, pick: 'targeted' }, '8M'], 'a stale first copy is hunted by exploring with a small buffer pool');
});

t.test('campaigns/ddl.yml: doublewrite on, atomic 4k, ext4, O_DIRECT, one lifecycle kind per scenario, expecting recovery', async (t) => {
  const c = await loadCampaign('campaigns/ddl.yml');
  for (const s of c.scenarios) {
    const { server, disk, load } = s.settings;
    t.same([server.doublewrite, server.flushMethod, disk.atomicUnit, disk.fs, s.settings.expect], [true, 'O_DIRECT', 4096, 'ext4', 'recovers'], s.settings.name);
    t.ok((load.mix?.['write-only'] ?? 0) > 0, `${s.settings.name}: the write-only transactions keep the ledger of commits`);
  }
  const kinds = new Set(c.scenarios.flatMap((s) => Object.keys(s.settings.load.mix ?? {})));
  t.same([...kinds].sort(), ['alter', 'bulk', 'churn', 'partition-truncate', 'partitions', 'write-only'], 'every kind runs');
});

t.test('campaigns/mysql-9.7.yml: MySQL 9.7 in its offline image, doublewrite on/off/detect-only', async (t) => {
  const c = await loadCampaign('campaigns/mysql-9.7.yml');
  t.same(c.scenarios.map((s) => [s.settings.name, s.settings.server.doublewrite, s.settings.disk.atomicUnit, s.settings.disk.fs, s.settings.expect]), [
    ['dw-on-atomic4k', true, 4096, 'ext4', 'recovers'],
    ['dw-on-after-writes', true, 4096, 'ext4', 'recovers'],
    ['dw-off-atomic4k', false, 4096, 'ext4', 'torn-reproduced'],
    ['dw-off-atomic16k-bigalloc', false, 16384, 'ext4-bigalloc16k', 'never-torn'],
    ['dw-detect-only-atomic4k', 'detect-only', 4096, 'ext4', 'detects'],
  ]);
  for (const s of c.scenarios) {
    t.same([s.settings.runtime, s.settings.image, s.settings.server.flushMethod], ['docker', 'powercut-rig/mysql-offline:9.7', 'O_DIRECT']);
  }
  t.same(c.scenarios[0]!.settings.findings, ['mysql-trx-sys-page', 'mysql-page0-survey', 'mysql-stale-dblwr-copy'], 'the aimed cut can tear the TRX_SYS page, a page 0 the survey misnames, or a page with a stale first copy');
  t.same(c.scenarios[1]!.settings.findings, ['mysql-o-direct-dblwr', 'mysql-trx-sys-page', 'mysql-page0-survey', 'mysql-stale-dblwr-copy'], 'the after-writes cut hunts the O_DIRECT finding, and meets the other three');
});

t.test('campaigns/servers.yml: the three headline scenarios on MariaDB 10.11, 11.8 and MySQL 9.7, and MyRocks at 4k and 16k', async (t) => {
  const c = await loadCampaign('campaigns/servers.yml');
  const row = (s: (typeof c.scenarios)[number]) => [
    s.settings.name, s.settings.runtime, s.settings.image ?? null, s.settings.server.engine, s.settings.server.doublewrite,
    s.settings.disk.atomicUnit, s.settings.disk.fs, s.settings.expect, s.settings.findings ?? [],
  ];
  const headline = (prefix: string, runtime: string, image: string | null, dwOnFindings: string[]) => [
    [`${prefix}-dw-on-atomic4k`, runtime, image, 'innodb', true, 4096, 'ext4', 'recovers', dwOnFindings],
    [`${prefix}-dw-off-atomic16k-bigalloc`, runtime, image, 'innodb', false, 16384, 'ext4-bigalloc16k', 'never-torn', []],
    [`${prefix}-dw-off-atomic4k`, runtime, image, 'innodb', false, 4096, 'ext4', 'torn-reproduced', []],
  ];
  t.same(c.scenarios.map(row), [
    ...headline('mariadb-10.11', 'local', null, ['page0-not-restored']),
    ...headline('mariadb-11.8', 'docker', 'powercut-rig/mariadb-offline:11.8', ['page0-not-restored']),
    ...headline('mysql-9.7', 'docker', 'powercut-rig/mysql-offline:9.7', ['mysql-trx-sys-page', 'mysql-page0-survey', 'mysql-stale-dblwr-copy']),
    ['myrocks-11.8-atomic4k', 'docker', 'powercut-rig/mariadb-offline:11.8', 'rocksdb', true, 4096, 'ext4', 'commits-kept', []],
    ['myrocks-11.8-atomic16k-bigalloc', 'docker', 'powercut-rig/mariadb-offline:11.8', 'rocksdb', true, 16384, 'ext4-bigalloc16k', 'commits-kept', []],
  ]);
  for (const s of c.scenarios) {
    t.same([s.settings.server.flushMethod, s.settings.load.tables, s.settings.load.rows, s.cycles], ['O_DIRECT', 4, 10000, 3], s.settings.name);
    const trigger = s.settings.server.engine === 'rocksdb' ? { kind: 'armed', pendingPageWrites: 8 } : { kind: 'armed', pendingPageWrites: 16 };
    t.same(s.settings.disk.trigger, trigger, `${s.settings.name}: the trigger its engine gets by default`);
  }
});

t.test('campaigns/explore.yml: the quick campaign\'s three scenarios in explore mode, 50 targeted states each', async (t) => {
  const quick = await loadCampaign('campaigns/quick.yml');
  const c = await loadCampaign('campaigns/explore.yml');
  t.same(c.scenarios.map((s) => [s.settings.name, s.settings.expect, s.settings.explore, s.cycles]), quick.scenarios.map((s) => [s.settings.name, s.settings.expect, { states: 50, pick: 'targeted' }, 1]));
  for (const [i, s] of c.scenarios.entries()) {
    const { explore: _, ...settings } = s.settings;
    t.same({ ...settings, disk: { ...settings.disk, trigger: null } }, { ...quick.scenarios[i]!.settings, disk: { ...quick.scenarios[i]!.settings.disk, trigger: null } }, `${s.settings.name}: the settings of quick.yml but the trigger`);
    t.same(s.settings.disk.trigger, { kind: 'at-time', ms: 5000 });
  }
});

t.test('campaigns/cache-modes.yml: O_DIRECT_NO_FSYNC with doublewrite on a durable and a volatile cache, and the durable negative control', async (t) => {
  const c = await loadCampaign('campaigns/cache-modes.yml');
  t.same(c.scenarios.map((s) => [s.settings.name, s.settings.server.doublewrite, s.settings.server.flushMethod, s.settings.disk.profile, s.settings.disk.model.cache, s.settings.expect, s.cycles]), [
    ['odnf-durable', true, 'O_DIRECT_NO_FSYNC', 'essd', 'durable', 'recovers', 8],
    ['odnf-volatile', true, 'O_DIRECT_NO_FSYNC', 'local', 'volatile', 'recovers', 8],
    ['odnf-durable-counted', true, 'O_DIRECT_NO_FSYNC', 'essd', 'durable', 'recovers', 8],
    ['odnf-volatile-counted', true, 'O_DIRECT_NO_FSYNC', 'local', 'volatile', 'recovers', 8],
    ['dw-off-durable', false, 'O_DIRECT_NO_FSYNC', 'essd', 'durable', 'torn-reproduced', 8],
  ]);
  for (const s of c.scenarios.filter((x) => x.settings.disk.model.cache === 'durable')) {
    t.notOk(s.settings.findings?.includes('o-direct-no-fsync'), `${s.settings.name}: on a durable cache the flush method's finding excuses no break`);
  }
  for (const s of c.scenarios.filter((x) => x.settings.server.doublewrite)) {
    t.ok(s.settings.findings?.includes('dblwr-unwritten-extent'), `${s.settings.name}: copies lost in unwritten extents happen on either cache`);
  }
  t.same(c.scenarios.map((s) => s.settings.disk.trigger.kind), ['armed', 'armed', 'after-writes', 'after-writes', 'armed'], 'each cut on both caches');
});

t.test('campaigns/perf.yml: the perf comparison on essd and local, each next to never-torn cuts of the same setting', async (t) => {
  const c = await loadCampaign('campaigns/perf.yml');
  const perf = c.scenarios.filter((s) => s.settings.perf);
  t.same(perf.map((s) => [s.settings.disk.profile, s.cycles >= 3]), [['essd', true], ['local', true]]);
  for (const p of perf) {
    const safety = c.scenarios.filter((s) => !s.settings.perf && s.settings.disk.profile === p.settings.disk.profile);
    t.same(safety.map((s) => [s.settings.expect, s.settings.server.doublewrite, s.settings.disk.fs, s.settings.disk.atomicUnit, s.settings.server.bufferPool]),
      [['never-torn', false, p.settings.disk.fs, p.settings.disk.atomicUnit, p.settings.server.bufferPool]], `${p.settings.name}: its safety half`);
  }
});
