import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RigError } from '../../rig/errors.js';
import { loadCampaign, parseCampaign } from '../../rig/campaign/load-campaign.js';
import { FILESYSTEMS } from '../../faults/filesystems.js';
import { showSize } from '../../faults/sizes.js';

const FILE = 'campaigns/x.yml';

/** A campaign with one scenario whose body is `scenario` (YAML, indented under the list item). */
function oneScenario(scenario: string): string {
  return `name: x\nscenarios:\n  - name: a\n${scenario.replace(/^/gm, '    ')}\n`;
}

function rejection(text: string): RigError {
  try {
    parseCampaign(text, FILE);
  } catch (error) {
    if (error instanceof RigError) return error;
    throw error;
  }
  throw new Error('the campaign was accepted');
}

const rejected: [string, string, string][] = [
  // [case, campaign text, the one line it must give]
  ['unknown top-level key', 'name: x\nscenaros: []\n', 'campaigns/x.yml: scenaros: unknown key; did you mean scenarios?'],
  ['unknown scenario key', oneScenario('cycle: 3'), 'scenarios[0].cycle: unknown key; did you mean cycles?'],
  ['unknown disk key', oneScenario('disk: {atomc: 4k}'), 'scenarios[0].disk.atomc: unknown key; did you mean atomic?'],
  ['unknown profile', oneScenario('disk: {profile: fast-ssd}'), "scenarios[0].disk.profile: 'fast-ssd' is not a shipped profile; use essd, local, nvme or pmem, or a file path (copy one from faults/profiles/)"],
  ['missing profile file', oneScenario('disk: {profile: ./nowhere/dev.yml}'), 'scenarios[0].disk.profile: ./nowhere/dev.yml: cannot read the profile file (ENOENT); check the path'],
  ['explore on a durable cache', oneScenario('mode: explore\ndisk: {profile: nvme}'), "scenarios[0].disk.profile: explore builds crash states from the writes after each flush, and profile 'nvme' has a durable cache"],
  ['seconds on a live scenario', oneScenario('seconds: 30'), 'scenarios[0].seconds: seconds is for perf mode; add mode: perf, or remove seconds'],
  ['states on a perf scenario', oneScenario('mode: perf\nstates: 5'), 'scenarios[0].states: states has no use in perf mode, which measures and judges nothing; remove it'],
  ['an expectation on a perf scenario', oneScenario('mode: perf\nexpect: never-torn'), 'scenarios[0].expect: expect has no use in perf mode'],
  ['doublewrite on a perf scenario', oneScenario('mode: perf\nserver: {doublewrite: off}'), 'scenarios[0].server.doublewrite: server.doublewrite is set by perf mode (doublewrite on against off, ext4-bigalloc16k, atomic 16k, sysbench); remove it'],
  ['a filesystem on a perf scenario', oneScenario('mode: perf\ndisk: {fs: xfs}'), 'scenarios[0].disk.fs: disk.fs is set by perf mode'],
  ['a load mix on a perf scenario', oneScenario('mode: perf\nload: {mix: [churn]}'), 'scenarios[0].load.mix: load.mix is set by perf mode'],
  ['perf seconds of zero', oneScenario('mode: perf\nseconds: 0'), 'scenarios[0].seconds: 0 is too small; use at least 1'],
  ['an unknown mode', oneScenario('mode: bench'), 'scenarios[0].mode:'],
  ['cycles of the wrong type', oneScenario('cycles: three'), "scenarios[0].cycles: 'three' is not a number"],
  ['cycles of zero', oneScenario('cycles: 0'), 'scenarios[0].cycles: 0 is too small; use at least 1'],
  ['cycles not whole', oneScenario('cycles: 2.5'), 'scenarios[0].cycles: 2.5 is not a whole number'],
  ['section of the wrong type', oneScenario('server: fast'), "scenarios[0].server: 'fast' is not an object"],
  ['atomic not a power of two', 'name: x\nscenarios:\n  - {name: a}\n  - {name: b}\n  - {name: c, disk: {atomic: 12k}}\n',
    'campaigns/x.yml: scenarios[2].disk.atomic: 12k is not a power of two; use 512, 4k, 8k, 16k, 32k or 64k'],
  ['atomic too large', oneScenario('disk: {atomic: 128k}'), 'scenarios[0].disk.atomic: 128k is outside what the disk models; use 512'],
  ['atomic too small', oneScenario('disk: {atomic: 256}'), 'scenarios[0].disk.atomic: 256 is outside what the disk models'],
  ['atomic not a size', oneScenario('disk: {atomic: big}'), "scenarios[0].disk.atomic: 'big' is not a size"],
  ['page size the server lacks', oneScenario('server: {pageSize: 2k}'), 'scenarios[0].server.pageSize: 2k is not an innodb_page_size the server supports; use 4k, 8k, 16k, 32k or 64k'],
  ['page size too large', oneScenario('server: {pageSize: 128k}'), 'scenarios[0].server.pageSize: 128k is not an innodb_page_size'],
  ['buffer pool too small for 64k pages', oneScenario('server: {pageSize: 64k, bufferPool: 16M}'), 'scenarios[0].server.bufferPool: 16M is too small for 64k pages (mariadbd refuses to start); use 21M or more'],
  ['buffer pool below the server minimum', oneScenario('server: {bufferPool: 1M}'), 'scenarios[0].server.bufferPool: 1M is too small; use 2M or more'],
  ['redo log below the server minimum', oneScenario('server: {redoSize: 1M}'), 'scenarios[0].server.redoSize: 1M is too small; use 4M or more'],
  ['flush method the server lacks', oneScenario('server: {flushMethod: O_SYNC}'), "scenarios[0].server.flushMethod: 'O_SYNC' is not allowed here; use O_DIRECT, O_DIRECT_NO_FSYNC, fsync or O_DSYNC"],
  ['doublewrite neither on, off nor fast', oneScenario('server: {doublewrite: maybe}'), "scenarios[0].server.doublewrite: 'maybe' is not on, off, fast, detect-only or detect-and-recover; use one of those (fast: MariaDB 11.x; detect-*: MySQL 8.0.30+)"],
  ['filesystem the rig lacks', oneScenario('disk: {fs: btrfs}'), "scenarios[0].disk.fs: 'btrfs' is not allowed here; use ext4, ext4-bigalloc16k, xfs, xfs-extsize16k, xfs-su16k or xfs-bs16k"],
  ['manual trigger', oneScenario('disk: {trigger: manual}'), "scenarios[0].disk.trigger: 'manual' waits for a person to fire the cut, and nobody does in a campaign; use 'armed 16'"],
  ['trigger the disk lacks', oneScenario('disk: {trigger: random}'), "scenarios[0].disk.trigger: 'random' is not a trigger the disk has; use 'armed 16', 'after-writes N' or 'at-time 5s'"],
  ['armed with no count', oneScenario("disk: {trigger: 'armed 0'}"), "scenarios[0].disk.trigger: 'armed 0' needs a count of 1 or more"],
  ['at-time without a unit', oneScenario("disk: {trigger: 'at-time 5'}"), "scenarios[0].disk.trigger: 'at-time 5' needs a time above zero"],
  ['at-time after the load gives up', oneScenario("disk: {trigger: 'at-time 200s'}\nload: {maxSeconds: 60}"), "scenarios[0].disk.trigger: 'at-time 200s' fires after the load gives up (load.maxSeconds: 60)"],
  ['cache bound smaller than the armed count needs', oneScenario("disk: {trigger: 'armed 16', cacheBound: 64k}"), 'scenarios[0].disk.cacheBound: 64k cannot hold the pending page writes'],
  ['xfs on a disk mkfs.xfs refuses', oneScenario('disk: {fs: xfs, size: 299M}'), 'campaigns/x.yml: scenarios[0].disk.size: 299M is too small for xfs; use 300M or more'],
  ['xfs with a stripe unit on the default disk', oneScenario('disk: {fs: xfs-su16k}'), 'campaigns/x.yml: scenarios[0].disk.size: 512M is too small for xfs-su16k; use 513M or more'],
  ['a disk size the disk cannot serve', oneScenario('disk: {size: 200001k}'), 'campaigns/x.yml: scenarios[0].disk.size: 204801024 is not a multiple of 64k; round it up to 200064k'],
  ['disk smaller than the redo log', oneScenario('disk: {size: 64M}\nserver: {redoSize: 96M}'), 'scenarios[0].disk.size: 64M cannot hold the 96M redo log'],
  ['fates that all weigh nothing', oneScenario('disk: {fates: {land: 0, tear: 0}}'), "scenarios[0].disk.fates: every fate weighs 0; give one a weight above 0, e.g. {tear: 1} or 'land=2,drop=1'"],
  ['a negative fate weight', oneScenario('disk: {fates: {drop: -1}}'), 'scenarios[0].disk.fates: drop: -1 is not a weight; use a number of 0 or more'],
  ['a fate the disk lacks', oneScenario('disk: {fates: {tears: 1}}'), "scenarios[0].disk.fates: 'tears' is not a fate; did you mean tear? use land, drop or tear"],
  ['fates as a list', oneScenario('disk: {fates: [tear]}'), 'scenarios[0].disk.fates: ["tear"] is not a set of fate weights'],
  ['exercise share above one', oneScenario('exercise: {minShare: 50}'), 'scenarios[0].exercise.minShare: minShare is a share of cycles, from 0 to 1 (e.g. 0.5 for half)'],
  ['exercise with an unknown key', oneScenario('exercise: {share: 0.5}'), 'scenarios[0].exercise'],
  ['an image on the local runtime', oneScenario('image: mariadb:11.4'), 'scenarios[0].image: an image is used only with runtime: docker'],
  ['an empty image', oneScenario("runtime: docker\nimage: ''"), "scenarios[0].image: '' is empty; write one here"],
  ['load kind the rig lacks', oneScenario('load: {kind: fio}'), "scenarios[0].load.kind: 'fio' is not allowed here; use builtin or sysbench"],
  ['finding nobody wrote up', oneScenario('findings: [torn-everything]'), "scenarios[0].findings[0]: 'torn-everything' is not allowed here; use page0-not-restored, o-direct-no-fsync, unaligned-16k, par-not-synced, fsync-checkpoint-race, mysql-o-direct-dblwr, mysql-trx-sys-page, mysql-page0-survey, mysql-stale-dblwr-copy, create-then-rename or dblwr-unwritten-extent"],
  ['an empty findings list', oneScenario('findings: []'), 'scenarios[0].findings: findings is empty; name at least one or leave it out'],
  ['a backend the disk lacks', oneScenario('disk: {backend: nbd}'), "scenarios[0].disk.backend: 'nbd' is not allowed here; use fuse or dm"],
  ['the dm backend on a durable cache', oneScenario('disk: {backend: dm, profile: essd}'), 'scenarios[0].disk.backend: --backend dm models a volatile write cache'],
  ['the dm backend in explore', oneScenario('mode: explore\ndisk: {backend: dm}'), 'scenarios[0].disk.backend: explore records every write through the FUSE helper; use --backend fuse for it'],
  ['load mix with an unknown kind', oneScenario('load: {mix: [write-only, chrun]}'), "scenarios[0].load.mix: 'chrun' is not a load kind; did you mean churn? use write-only, churn, alter, partitions, partition-truncate, bulk or survey-bait"],
  ['load mix naming a kind twice', oneScenario('load: {mix: [churn, churn]}'), 'scenarios[0].load.mix: churn is named twice; name each kind once, e.g. [write-only, churn] or {write-only: 4, churn: 1}'],
  ['engine the rig does not run', oneScenario('server: {engine: myisam}'), "scenarios[0].server.engine: 'myisam' is not allowed here; use innodb or rocksdb"],
  ['RocksDB tables with sysbench, whose commits nobody counts', oneScenario('server: {engine: rocksdb}\nload: {kind: sysbench}'), "scenarios[0].load.kind: expect: commits-kept is judged on the builtin load's ledger of acknowledged commits, and sysbench keeps none (its PASS would prove nothing); use kind: builtin"],
  ['commits-kept asked of sysbench on InnoDB', oneScenario('expect: commits-kept\nload: {kind: sysbench}'), "scenarios[0].load.kind: expect: commits-kept is judged on the builtin load's ledger of acknowledged commits, and sysbench keeps none (its PASS would prove nothing); use kind: builtin"],
  ['RocksDB tables with a lifecycle mix', oneScenario('server: {engine: rocksdb}\nload: {mix: [write-only, churn]}'), "scenarios[0].load.mix: the mix 'write-only 1, churn 1' has InnoDB's own DDL and tablespace checks, not RocksDB's; with engine: rocksdb use the write-only mix (remove load.mix)"],
  ['load mix that is empty', oneScenario('load: {mix: []}'), 'scenarios[0].load.mix: an empty mix runs nothing; name at least one kind'],
  ['load mix with a negative weight', oneScenario('load: {mix: {write-only: 4, bulk: -1}}'), "scenarios[0].load.mix: bulk: -1 is not a weight; use a number of 0 or more"],
  ['load mix with a weight that is not a number', oneScenario('load: {mix: {churn: often}}'), "scenarios[0].load.mix: churn: 'often' is not a weight"],
  ['load mix whose weights are all zero', oneScenario('load: {mix: {write-only: 0, churn: 0}}'), 'scenarios[0].load.mix: every weight is 0, so nothing would run; give at least one kind a weight above 0'],
  ['load mix of the wrong type', oneScenario('load: {mix: 3}'), 'scenarios[0].load.mix: 3 is not a mix; use a list of kinds or weights'],
  ['load mix with sysbench', oneScenario('load: {kind: sysbench, mix: [write-only, churn]}'), "scenarios[0].load.mix: sysbench runs only its own oltp_write_only, not the mix 'write-only 1, churn 1'; use kind: builtin or remove load.mix"],
  ['bulk tables on a disk too small for them', oneScenario('load: {connections: 16, mix: [write-only, bulk]}\ndisk: {size: 256M}'), 'scenarios[0].disk.size: 256M cannot hold the redo log, the datadir and a bulk table of up to 16M per connection; use 416M or more, or fewer connections'],
  ['expectation the oracle lacks', oneScenario('expect: passes'), "scenarios[0].expect: 'passes' is not allowed here; use recovers, never-torn, torn-reproduced, detects or commits-kept"],
  ['unsafe scenario name', 'name: x\nscenarios:\n  - name: ../etc\n', "scenarios[0].name: '../etc' is not safe as a folder name"],
  ['upper-case scenario name', 'name: x\nscenarios:\n  - name: DwOn\n', "scenarios[0].name: 'DwOn' is not safe as a folder name"],
  ['scenario without a name', 'name: x\nscenarios:\n  - cycles: 3\n', 'scenarios[0].name: missing; add it (a string)'],
  ['scenario not a mapping', 'name: x\nscenarios:\n  - dw-on\n', 'scenarios[0]: expected a mapping with name: and its settings'],
  ['duplicate names', 'name: x\nscenarios:\n  - name: a\n  - name: a\n', "scenarios[1].name: 'a' is already the name of scenarios[0]; give every scenario its own name"],
  ['duplicate names after matrix expansion', 'name: x\nscenarios:\n  - name: a-ext4\n  - name: a\n    matrix: {disk.fs: [ext4, xfs]}\n', "scenarios[1].matrix: 'a-ext4' is already the name of scenarios[0]"],
  ['matrix values that collide', oneScenario("matrix: {disk.trigger: ['armed 16', 'armed  16']}"), "scenarios[0].matrix: 'a-armed-16' is already the name of another variant of this matrix"],
  ['no scenarios', 'name: x\nscenarios: []\n', 'campaigns/x.yml: scenarios: no scenarios; add at least one under scenarios:'],
  ['scenarios missing', 'name: x\n', 'campaigns/x.yml: scenarios: missing; add it (an array)'],
  ['campaign without a name', 'scenarios:\n  - name: a\n', 'campaigns/x.yml: name: missing; add it'],
  ['empty file', '', 'campaigns/x.yml: the file holds no campaign (it is empty, or comments alone); write one, e.g. as campaigns/quick.yml does'],
  ['comments alone', '# a campaign, some day\n', 'campaigns/x.yml: the file holds no campaign (it is empty, or comments alone)'],
  ['a string', '"line one\\nline two"\n', "campaigns/x.yml: (top level): 'line one\\nline two' is not an object"],
  ['matrix key that is not a setting', oneScenario('matrix: {disk.colour: [red]}'), 'scenarios[0].matrix.disk.colour: not a setting a matrix can vary'],
  ['matrix value that is not a list', oneScenario('matrix: {disk.fs: ext4}'), "scenarios[0].matrix.disk.fs: 'ext4' is not a list of values"],
  ['matrix with an empty list', oneScenario('matrix: {disk.fs: []}'), 'scenarios[0].matrix.disk.fs: [] is not a list of values'],
  ['matrix key also set in the scenario', oneScenario('disk: {fs: xfs}\nmatrix: {disk.fs: [ext4, xfs]}'), 'scenarios[0].matrix.disk.fs: disk.fs is also set in the scenario itself; set it in one place'],
  ['bad value inside a matrix', oneScenario('matrix: {disk.atomic: [4k, 12k]}'), 'scenarios[0].matrix.disk.atomic[1]: 12k is not a power of two'],
  ['impossible combination from a matrix', oneScenario('server: {bufferPool: 16M}\nmatrix: {server.pageSize: [16k, 64k]}'), 'scenarios[0].server.bufferPool: 16M is too small for 64k pages (mariadbd refuses to start); use 21M or more (in a-64k)'],
  ['more seeds than cycles', oneScenario('cycles: 2\nseeds: [1, 2, 3]'), 'scenarios[0].seeds: 3 seeds for 2 cycles; remove seeds or set cycles: 3'],
  ['a seed out of range', oneScenario('seeds: [-1]'), 'scenarios[0].seeds[0]: -1 is too small; use at least 0'],
  ['unknown defaults key', 'name: x\ndefaults: {seeds: [1]}\nscenarios:\n  - name: a\n', 'defaults.seeds: unknown key'],
  ['bad value in defaults', 'name: x\ndefaults: {disk: {atomic: 3k}}\nscenarios:\n  - name: a\n', 'defaults.disk.atomic: 3k is not a power of two'],
  ['evidence cap not a size', 'name: x\nevidence: {maxBytes: lots}\nscenarios:\n  - name: a\n', "evidence.maxBytes: 'lots' is not a size; write it like 2G"],
  ['evidence sample without keep naming it', 'name: x\nevidence: {sample: 2}\nscenarios:\n  - name: a\n', 'evidence.sample: sample is set but keep (contradicting, findings, torn) does not name it; add sample to keep, or remove sample'],
  ['evidence keep naming sample without a count', 'name: x\nevidence: {keep: [torn, sample]}\nscenarios:\n  - name: a\n', 'evidence.sample: keep names sample, so say how many cycles a scenario keeps (sample: 3)'],
  ['evidence keep naming no reason', 'name: x\nevidence: {keep: [torn, everything]}\nscenarios:\n  - name: a\n', 'evidence.keep[1]:'],
  ['evidence keep empty', 'name: x\nevidence: {keep: []}\nscenarios:\n  - name: a\n', 'evidence.keep: keep is empty; name what keeps evidence'],
  ['YAML syntax error', 'name: x\n  bad: [\n', 'campaigns/x.yml:1:7: Nested mappings are not allowed in compact mappings; fix the YAML syntax there'],
  ['duplicate YAML keys', 'name: x\nname: y\nscenarios:\n  - name: a\n', 'campaigns/x.yml:2:1: Map keys must be unique; fix the YAML syntax there'],
];

for (const [what, text, expected] of rejected) {
  t.test(`rejects ${what}`, async (t) => {
    const error = rejection(text);
    t.equal(error.exitCode, 2, 'bad input: exit 2');
    t.notMatch(error.message, /\n/, 'one line');
    t.ok(error.message.startsWith(FILE), `names the file: ${error.message}`);
    t.ok(error.message.includes(expected), `says "${expected}"; got: ${error.message}`);
  });
}

// Where the filesystem's own minimum is above what the datadir needs (ext4's is not), a campaign
// accepts exactly the sizes the disk makes that filesystem on: one minimum, read by both.
t.test('a campaign takes exactly the disk sizes the disk makes each xfs on', async (t) => {
  for (const fs of ['xfs', 'xfs-su16k', 'xfs-bs16k'] as const) {
    const min = FILESYSTEMS[fs].minBytes;
    const at = (bytes: number) => oneScenario(`disk: {fs: ${fs}, size: ${bytes}}\nserver: {redoSize: 4M}`);
    t.equal(parseCampaign(at(min), FILE).scenarios[0]!.settings.disk.sizeBytes, min, `${fs} on ${min} bytes`);
    const below = showSize(min - 65536);
    t.equal(rejection(at(min - 65536)).message, `${FILE}: scenarios[0].disk.size: ${below} is too small for ${fs}; use ${showSize(min)} or more`);
  }
});

t.test('disk.backend: dm where a file says so, the FUSE disk (no key) where it does not', async (t) => {
  const c = parseCampaign('name: x\ndefaults: {disk: {backend: dm}}\nscenarios:\n  - {name: a}\n  - {name: b, disk: {backend: fuse}}\n', FILE);
  t.same(c.scenarios.map((s) => [s.settings.name, s.settings.disk.backend]), [['a', 'dm'], ['b', undefined]]);
});

t.test('a docker scenario may leave its image out: the runtime picks the newest built for the host', async (t) => {
  const settings = parseCampaign(oneScenario('runtime: docker'), FILE).scenarios[0]!.settings;
  t.equal(settings.runtime, 'docker');
  t.equal(settings.image, undefined);
});

t.test('a missing file is bad input naming the path', async (t) => {
  await t.rejects(loadCampaign('/nonexistent/campaign.yml'), { code: 'bad-input', message: /\/nonexistent\/campaign.yml: cannot read the campaign file \(ENOENT\)/ });
});

t.test('loads a campaign from a file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rig-campaign-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'c.yml');
  await writeFile(file, 'name: c\nseed: 9\nscenarios:\n  - name: one\n    cycles: 2\n');
  const campaign = await loadCampaign(file);
  t.equal(campaign.file, file);
  t.equal(campaign.seed, 9);
  t.same(campaign.scenarios.map((s) => [s.settings.name, s.cycles, s.seeds.length]), [['one', 2, 2]]);
});

t.test('a perf scenario: the doublewrite-on member of the pair, on the aligned filesystem with 16k atomic writes', async (t) => {
  const c = parseCampaign('name: x\ndefaults: {server: {doublewrite: off}, disk: {fs: xfs}}\nscenarios:\n  - {name: p, mode: perf, seconds: 20, cycles: 2, disk: {profile: essd}, load: {rows: 500}}\n', FILE);
  const s = c.scenarios[0]!;
  t.same(s.settings.perf, { seconds: 20 });
  t.equal(s.cycles, 2, 'a cycle is a pair of runs');
  t.match(s.settings, { server: { doublewrite: true, bufferPool: '32M' }, disk: { fs: 'ext4-bigalloc16k', atomicUnit: 16384, profile: 'essd', model: { cache: 'durable' } }, load: { kind: 'sysbench', connections: 32, tables: 16, rows: 500 } });
  t.equal(parseCampaign('name: x\nscenarios:\n  - {name: p, mode: perf}\n', FILE).scenarios[0]!.settings.perf!.seconds, 60, 'seconds by default');
  t.equal(parseCampaign('name: x\nscenarios:\n  - {name: l}\n', FILE).scenarios[0]!.settings.perf, undefined, 'a live scenario has no perf');
});
