import t from 'tap';
import { parseCampaign } from '../../rig/campaign/load-campaign.js';
import { DEFAULT_DISK, DEFAULT_LOAD, DEFAULT_SERVER } from '../../rig/defaults.js';
import { deriveCycleSeed } from '../../rig/campaign/seeds.js';

const parse = (text: string, overrides = {}) => parseCampaign(text, 'c.yml', overrides);

t.test('a bare scenario gets the built-in defaults and the expectation they imply', async (t) => {
  const [s] = parse('name: c\nscenarios:\n  - name: a\n').scenarios;
  t.same(s!.settings, { name: 'a', runtime: 'local', server: DEFAULT_SERVER, disk: DEFAULT_DISK, load: DEFAULT_LOAD, expect: 'recovers' });
  t.equal(s!.cycles, 3);
});

t.test('a device profile by name: its name and model in the disk settings, from defaults or the scenario', async (t) => {
  const [a, b] = parse('name: c\ndefaults: {disk: {profile: essd}}\nscenarios:\n  - name: a\n  - {name: b, disk: {profile: local}}\n').scenarios;
  t.same([a!.settings.disk.profile, a!.settings.disk.model.cache, a!.settings.disk.model.queueDepth], ['essd', 'durable', 32]);
  t.same([b!.settings.disk.profile, b!.settings.disk.model], ['local', DEFAULT_DISK.model]);
  t.same([DEFAULT_DISK.profile, DEFAULT_DISK.model.cache], ['local', 'volatile'], 'the default: the machine as it is');
});

t.test('doublewrite: fast, and an image named by its catalog name', async (t) => {
  const c = parse(`name: c
defaults: {runtime: docker, image: mariadb-11.8}
scenarios:
  - {name: fast, server: {doublewrite: fast}}
  - {name: tagged, image: my/mariadb:11.8, server: {doublewrite: on}}
`);
  t.same(c.scenarios.map((s) => [s.settings.image, s.settings.server.doublewrite, s.settings.expect]), [
    ['powercut-rig/mariadb-offline:11.8', 'fast', 'recovers'],
    ['my/mariadb:11.8', true, 'recovers'],
  ]);
});

t.test('MySQL 8.0.30+ doublewrite modes and the expectations they imply', async (t) => {
  const c = parse(`name: c
defaults: {runtime: docker, image: mysql-9.7}
scenarios:
  - {name: detect, server: {doublewrite: detect-only}}
  - {name: detect-16k, server: {doublewrite: detect-only}, disk: {atomic: 16k, fs: ext4-bigalloc16k}}
  - {name: recover, server: {doublewrite: detect-and-recover}}
`);
  t.same(c.scenarios.map((s) => [s.settings.image, s.settings.server.doublewrite, s.settings.expect]), [
    ['powercut-rig/mysql-offline:9.7', 'detect-only', 'detects'],
    ['powercut-rig/mysql-offline:9.7', 'detect-only', 'never-torn'],
    ['powercut-rig/mysql-offline:9.7', 'detect-and-recover', 'recovers'],
  ]);
});

t.test('engine rocksdb keeps commits whatever the atomic unit; innodb is the default', async (t) => {
  const c = parse(`name: c
defaults: {runtime: docker, image: mariadb-11.8}
scenarios:
  - {name: rocks-4k, server: {engine: rocksdb}}
  - {name: rocks-16k, server: {engine: rocksdb}, disk: {atomic: 16k, fs: ext4-bigalloc16k}}
  - {name: rocks-dw-off, server: {engine: rocksdb, doublewrite: off}}
  - {name: inno}
`);
  t.same(c.scenarios.map((s) => [s.settings.server.engine, s.settings.expect]), [
    ['rocksdb', 'commits-kept'],
    ['rocksdb', 'commits-kept'],
    ['rocksdb', 'commits-kept'],
    ['innodb', 'recovers'],
  ]);
});

t.test('defaults apply section by section; the scenario wins key by key', async (t) => {
  const c = parse(`name: c
defaults:
  cycles: 5
  server: {doublewrite: off, bufferPool: 64M, redoSize: 32M}
  disk: {atomic: 16k, fs: ext4-bigalloc16k, cacheBound: 128M, size: 2G}
  load: {tables: 4, rows: 10000, connections: 8}
scenarios:
  - name: a
    server: {bufferPool: 256m}
    disk: {fs: xfs, trigger: 'after-writes 5000'}
    load: {kind: sysbench, maxSeconds: 30}
  - name: b
    cycles: 2
    runtime: docker
    image: mariadb:11.4
    server: {pageSize: 4k, flushMethod: fsync, doublewrite: true}
    disk: {atomic: 512, trigger: 'at-time 2.5s'}
`);
  const [a, b] = c.scenarios;
  t.same(a!.settings.server, { engine: 'innodb', doublewrite: false, flushMethod: 'O_DIRECT', pageSize: 16384, bufferPool: '256M', redoSize: '32M' });
  t.same(a!.settings.disk, { profile: 'local', model: DEFAULT_DISK.model, atomicUnit: 16384, fs: 'xfs', trigger: { kind: 'after-writes', writes: 5000 }, journalMaxBytes: 128 * 2 ** 20, sizeBytes: 2 * 2 ** 30 });
  t.same(a!.settings.load, { kind: 'sysbench', connections: 8, tables: 4, rows: 10000, maxSeconds: 30 });
  t.equal(a!.cycles, 5);
  t.equal(a!.settings.expect, 'never-torn', 'doublewrite off, atomic 16k >= 16k pages');
  t.equal(b!.cycles, 2);
  t.equal(b!.settings.runtime, 'docker');
  t.equal(b!.settings.image, 'mariadb:11.4');
  t.same(b!.settings.server, { engine: 'innodb', doublewrite: true, flushMethod: 'fsync', pageSize: 4096, bufferPool: '64M', redoSize: '32M' });
  t.same(b!.settings.disk.trigger, { kind: 'at-time', ms: 2500 });
  t.equal(b!.settings.expect, 'recovers');
  t.equal(c.evidence.maxBytes, 2 * 2 ** 30, 'evidence cap default');
});

t.test('fate weights: named ones as given, the others 0; unset means the default policy', async (t) => {
  const c = parse(`name: f
scenarios:
  - {name: a, disk: {fates: {tear: 1}}}
  - {name: b, disk: {fates: {land: 2, drop: 1}}}
  - {name: c}
`);
  const [a, b, d] = c.scenarios;
  t.same(a!.settings.disk.fates, { land: 0, drop: 0, tear: 1 });
  t.same(b!.settings.disk.fates, { land: 2, drop: 1, tear: 0 });
  t.equal(d!.settings.disk.fates, undefined);
});

t.test('the share a scenario must exercise: from defaults, the scenario wins, unset when neither names one', async (t) => {
  const c = parse('name: c\ndefaults:\n  exercise: {minShare: 0.8}\nscenarios:\n  - name: a\n  - name: b\n    exercise: {minShare: 0.25}\n');
  t.same(c.scenarios.map((s) => s.settings.exercise), [{ minShare: 0.8 }, { minShare: 0.25 }]);
  t.notOk('exercise' in parse('name: c\nscenarios:\n  - name: a\n').scenarios[0]!.settings);
});

t.test('the findings a scenario knows: from defaults, the scenario wins, unset when neither names one', async (t) => {
  const c = parse('name: c\ndefaults:\n  findings: [page0-not-restored]\nscenarios:\n  - name: a\n  - name: b\n    findings: [o-direct-no-fsync, o-direct-no-fsync]\n');
  t.same(c.scenarios.map((s) => s.settings.findings), [['page0-not-restored'], ['o-direct-no-fsync']]);
  t.notOk('findings' in parse('name: c\nscenarios:\n  - name: a\n').scenarios[0]!.settings);
});

t.test('the expectation follows from the settings unless the scenario names one', async (t) => {
  const cases: [string, string][] = [
    ['server: {doublewrite: on}\n    disk: {atomic: 512}', 'recovers'],
    ['server: {doublewrite: off}\n    disk: {atomic: 16k}', 'never-torn'],
    ['server: {doublewrite: off, pageSize: 8k}\n    disk: {atomic: 16k}', 'never-torn'],
    ['server: {doublewrite: off}\n    disk: {atomic: 4k}', 'torn-reproduced'],
    ['server: {doublewrite: off, pageSize: 64k, bufferPool: 64M}\n    disk: {atomic: 32k}', 'torn-reproduced'],
    ['server: {doublewrite: off}\n    disk: {atomic: 4k}\n    expect: recovers', 'recovers'],
  ];
  for (const [body, expect] of cases) {
    const [s] = parse(`name: c\nscenarios:\n  - name: a\n    ${body}\n`).scenarios;
    t.equal(s!.settings.expect, expect, body.replace(/\n\s*/g, ' '));
  }
});

t.test('a matrix expands into named scenarios, first key slowest, each resolved on its own', async (t) => {
  const c = parse(`name: c
scenarios:
  - name: first
  - name: dw
    disk: {atomic: 16k, size: 1G}
    matrix: {disk.fs: [ext4, xfs-su16k], server.doublewrite: [on, off]}
  - name: flush
    matrix: {server.flushMethod: [O_DIRECT, O_DIRECT_NO_FSYNC], server.pageSize: [16k, 64k], server.bufferPool: [64M]}
`);
  t.same(c.scenarios.map((s) => s.settings.name), [
    'first',
    'dw-ext4-on', 'dw-ext4-off', 'dw-xfs-su16k-on', 'dw-xfs-su16k-off',
    'flush-o_direct-16k-64m', 'flush-o_direct-64k-64m', 'flush-o_direct_no_fsync-16k-64m', 'flush-o_direct_no_fsync-64k-64m',
  ]);
  const byName = new Map(c.scenarios.map((s) => [s.settings.name, s.settings]));
  t.equal(byName.get('dw-xfs-su16k-off')!.disk.fs, 'xfs-su16k');
  t.equal(byName.get('dw-xfs-su16k-off')!.server.doublewrite, false);
  t.equal(byName.get('dw-xfs-su16k-off')!.expect, 'never-torn');
  t.equal(byName.get('dw-ext4-on')!.expect, 'recovers');
  t.equal(byName.get('flush-o_direct_no_fsync-64k-64m')!.server.pageSize, 65536);
  t.equal(byName.get('flush-o_direct_no_fsync-64k-64m')!.server.flushMethod, 'O_DIRECT_NO_FSYNC');
});

t.test('seeds depend on campaign seed, scenario and cycle only; explicit seeds come first', async (t) => {
  const text = 'name: c\nseed: 42\nscenarios:\n  - name: a\n    cycles: 3\n  - name: b\n    cycles: 3\n    seeds: [7, 8]\n';
  const [a, b] = parse(text).scenarios;
  t.same(a!.seeds, [1, 2, 3].map((i) => deriveCycleSeed(42, 'a', i)));
  t.same(b!.seeds, [7, 8, deriveCycleSeed(42, 'b', 3)]);
  t.same(parse(text).scenarios[0]!.seeds, a!.seeds, 'the same file gives the same seeds');
  t.equal(new Set(a!.seeds).size, 3, 'cycles get different seeds');
  const reordered = parse('name: c\nseed: 42\nscenarios:\n  - name: b\n    cycles: 1\n  - name: a\n    cycles: 5\n').scenarios[1]!;
  t.same(reordered.seeds.slice(0, 3), a!.seeds, 'a scenario keeps its seeds when others change');
  const [other] = parse(text, { seed: 43 }).scenarios;
  t.notSame(other!.seeds, a!.seeds, '--seed changes derived seeds');
  t.same(parse('name: c\nscenarios:\n  - name: a\n    seeds: [5, 6]\n').scenarios[0]!.cycles, 2, 'seeds alone set the cycle count');
  for (const seed of a!.seeds) t.ok(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32, 'a 32-bit seed');
});

t.test('--cycles and --seed override the file', async (t) => {
  const text = 'name: c\nseed: 1\nscenarios:\n  - name: a\n    cycles: 9\n    seeds: [100, 101, 102]\n  - name: b\n';
  const c = parse(text, { cycles: 2, seed: 77 });
  t.equal(c.seed, 77);
  t.same(c.scenarios.map((s) => s.cycles), [2, 2]);
  t.same(c.scenarios[0]!.seeds, [100, 101], 'explicit seeds are kept, cut to the cycle count');
  t.same(c.scenarios[1]!.seeds, [deriveCycleSeed(77, 'b', 1), deriveCycleSeed(77, 'b', 2)]);
});
