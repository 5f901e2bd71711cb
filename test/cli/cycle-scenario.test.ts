/**
 * `rig cycle`'s flags: with none given, the cycle runs exactly what a campaign scenario naming
 * nothing runs (rig/defaults.ts); a flag's bad value is one line naming the flag, exit 2.
 */
import t from 'tap';
import { parseCampaign } from '../../rig/campaign/load-campaign.js';
import { MATRIX_KEYS } from '../../rig/campaign/matrix.js';
import { exploreScenarioFlags, SCENARIO_FLAGS, scenarioFromFlags } from '../../rig/cli/cycle-scenario.js';
import { checkTrigger, formatTrigger } from '../../faults/trigger.js';
import { DEFAULT_DISK, DEFAULT_LOAD, DEFAULT_RECOVERY_BOUNDS, DEFAULT_SEED, DEFAULT_SERVER } from '../../rig/defaults.js';
import { ensureBuilt, rig } from '../fixtures/rig-cli.js';
import { shippedProfile } from '../../faults/device-profile.js';

t.test('no flags: the settings of a campaign scenario that names nothing', async (t) => {
  const { scenario, seed, bounds } = scenarioFromFlags({});
  const campaign = parseCampaign('name: c\nscenarios:\n  - name: cycle\n', 'c.yml');
  t.same(scenario.settings, campaign.scenarios[0]!.settings);
  t.same(scenario.settings.server, DEFAULT_SERVER);
  t.same(scenario.settings.disk, DEFAULT_DISK);
  t.same(scenario.settings.load, DEFAULT_LOAD);
  t.equal(scenario.settings.runtime, 'local');
  t.equal(seed, DEFAULT_SEED);
  t.same(bounds, DEFAULT_RECOVERY_BOUNDS);
});

t.test('each flag sets its campaign key', async (t) => {
  const { scenario, seed, bounds } = scenarioFromFlags({
    doublewrite: 'off', bufferPool: '64M', pageSize: '4k', atomic: '16k', fs: 'xfs', cacheBound: '128M',
    size: '1G', trigger: 'after-writes 500', connections: '2', maxSeconds: '30', expect: 'recovers', engine: 'rocksdb',
    seed: '7', recoveryTimeout: '30', checkTimeout: '60', stallTimeout: '5', profile: 'nvme', fates: 'land=2, tear=1',
  });
  const s = scenario.settings;
  t.same([s.server.engine, s.server.doublewrite, s.server.bufferPool, s.server.pageSize], ['rocksdb', false, '64M', 4096]);
  t.same(s.disk, { profile: 'nvme', model: shippedProfile('nvme').device, atomicUnit: 16384, fs: 'xfs', trigger: { kind: 'after-writes', writes: 500 }, journalMaxBytes: 128 << 20, sizeBytes: 1 << 30, fates: { land: 2, drop: 0, tear: 1 } });
  t.same([s.load.connections, s.load.maxSeconds, s.expect], [2, 30, 'recovers']);
  t.equal(seed, 7);
  t.same(bounds, { startMs: 30_000, checksMs: 60_000, stallMs: 5000 });
  t.equal(scenarioFromFlags({ stallTimeout: '0' }).bounds.stallMs, 0, '--stall-timeout 0: no stall check, the bound alone');
});

t.test('every setting of a scenario has its flag (but the cycle count: a cycle is one)', async (t) => {
  t.same(SCENARIO_FLAGS.map((f) => f.key).sort(), MATRIX_KEYS.filter((k) => k !== 'cycles').sort());
});

const rejected: [string[], string][] = [
  [['--atomic', '12k'], 'rig: --atomic: 12k is not a power of two; use 512, 4k, 8k, 16k, 32k or 64k\n'],
  [['--connections', 'many'], "rig: --connections: 'many' is not a number; write a number here\n"],
  [['--connections', '0'], 'rig: --connections: 0 is too small; use at least 1\n'],
  [['--seed', '-3'], 'rig: --seed: -3 is too small; use at least 0\n'],
  [['--fs', 'btrfs'], "rig: --fs: 'btrfs' is not allowed here; use ext4, ext4-bigalloc16k, xfs, xfs-extsize16k, xfs-su16k or xfs-bs16k\n"],
  [['--trigger', 'manual'], "rig: --trigger: 'manual' waits for a person to fire the cut, and nobody does in a campaign; use 'armed 16', 'after-writes N' or 'at-time 5s'\n"],
  [['--fates', 'shred=1'], "rig: --fates: 'shred' is not a fate; use land, drop or tear, e.g. {tear: 1} or 'land=2,drop=1'\n"],
  [['--engine', 'myisam'], "rig: --engine: 'myisam' is not allowed here; use innodb or rocksdb\n"],
  [['--engine', 'rocksdb', '--mix', 'write-only,bulk'], "rig: --mix: the mix 'write-only 1, bulk 1' has InnoDB's own DDL and tablespace checks, not RocksDB's; with engine: rocksdb use the write-only mix (remove load.mix)\n"],
  [['--profile', 'ssd'], "rig: --profile: 'ssd' is not a shipped profile; use essd, local, nvme or pmem, or a file path (copy one from faults/profiles/)\n"],
  [['--profile', '/nonexistent/dev.yml'], 'rig: --profile: /nonexistent/dev.yml: cannot read the profile file (ENOENT); check the path\n'],
  [['--check-timeout', '0'], "rig: --check-timeout: '0' is not a whole number of seconds from 1 to 86400\n"],
  [['--stall-timeout', '1.5'], "rig: --stall-timeout: '1.5' is not a whole number of seconds from 0 to 86400\n"],
  // past 2^31 - 1 ms a timer fires at once: the checks would be judged hung straight away
  [['--recovery-timeout', '2147484'], "rig: --recovery-timeout: '2147484' is not a whole number of seconds from 1 to 86400\n"],
];

t.before(ensureBuilt);

t.test('rig explore with a durable cache: exit 2, one line naming the flag', async (t) => {
  const run = await rig(['explore', '--profile', 'essd', '--out', '/nonexistent/explore']);
  t.equal(run.exitCode, 2);
  t.equal(run.stderr, "rig: --profile: explore builds crash states from the writes after each flush, and profile 'essd' has a durable cache (a write is durable once it completes, whatever the flushes): use a profile with a volatile cache, or run live cycles (mode: live)");
});

t.test("rig explore's help gives explore's defaults and names what it refuses", async (t) => {
  const flags = new Map(exploreScenarioFlags().map((f) => [f.key, f]));
  t.same([...flags.keys()], SCENARIO_FLAGS.map((f) => f.key), "the cycle's flags, each once, in its order");
  const help = (await rig(['explore', '--help'])).stdout.replace(/\s+/g, ' ');
  t.match(help, "(default: at-time 5s)", 'the trigger explore cuts at when none is given');
  t.notMatch(help, 'armed 16', "not the live cycle's default");
  t.match(help, 'device profile with a volatile write cache (explore refuses a durable one): local or a profile file');
  t.notMatch(flags.get('disk.profile')!.help, /essd|nvme|pmem/, 'no shipped profile with a durable cache is offered');
  t.match(help, 'where the cut happens: fuse (explore records every write');
  t.match(help, 'explore refuses the lifecycle kinds');
  t.match((await rig(['cycle', '--help'])).stdout.replace(/\s+/g, ' '), '(default: armed 16; engine rocksdb: armed 8)', 'the cycle keeps its own');
});

t.test('a trigger reads back as it was written', async (t) => {
  for (const text of ['armed 16', 'after-writes 5000', 'at-time 5s', 'at-time 800ms', 'at-time 1500ms', 'manual']) {
    const spec = checkTrigger(text, true);
    t.ok(spec.ok, text);
    if (spec.ok) t.equal(formatTrigger(spec.value), text);
  }
  const minute = checkTrigger('at-time 2m', false);
  t.same(minute.ok && formatTrigger(minute.value), 'at-time 120s', 'minutes in seconds');
});

for (const [args, line] of rejected) {
  t.test(`rig cycle ${args.join(' ')}: exit 2, one line naming the flag`, async (t) => {
    const run = await rig(['cycle', ...args]);
    t.equal(run.exitCode, 2);
    t.equal(run.stderr, line.trimEnd());
  });
}
