/**
 * MyRocks in MariaDB 11.8 (powercut-rig/mariadb-offline:11.8, which has mariadb-plugin-rocksdb)
 * as a control, in real crash cycles on the power-fail disk: the load's tables on RocksDB, InnoDB
 * keeping the system tables with doublewrite on. The oracle's commits-kept: every acknowledged
 * commit present and the server starts, or it refuses on a torn log tail and says so; the atomic
 * unit must not matter (4k and 16k). A server without RocksDB is bad input before anything runs.
 */
import t, { type Test } from 'tap';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveScenario } from '../../rig/campaign/resolve-scenario.js';
import { runCycle } from '../../rig/cycle/run-cycle.js';
import { walTailLost } from '../../rig/cycle/rocksdb-writes.js';
import { buildImages } from '../../rig/docker/build-images.js';
import { dockerPaths } from '../../rig/docker/paths.js';
import { contextFromEnv } from '../../rig/context.js';
import { expectationHolds } from '../../rig/results/expectation.js';
import type { CycleRecord } from '../../rig/results/types.js';
import { createDockerRuntime } from '../../rig/runtime/docker.js';
import { ensureBuilt, rig } from '../fixtures/rig-cli.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { useDockerEngine } from '../fixtures/docker-engine.js';

const image = 'powercut-rig/mariadb-offline:11.8';
const runId = `myrocks-test-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'rig-docker-myrocks-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

// Every top-level await (the engine, the image build, describe) comes before the first subtest:
// tap ends the file once its queued subtests are done, and its teardown stops the engine.
const engine = await useDockerEngine(t, runId);
if (engine) {
  const started = Date.now();
  const built = await buildImages({ docker: engine.docker, paths: dockerPaths(contextFromEnv().workDir), names: ['mariadb-11.8', 'mysql-9.7'], log: (l) => t.comment(l) });
  t.comment(`images ${built.map((b) => b.status).join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const runtime = createDockerRuntime({ docker: engine.docker, image, runId });
  const { server: binary, version } = await runtime.describe();
  const hasRocksdb = await runtime.hasRocksdb();
  const dockerHost = { DOCKER_HOST: `unix://${engine.socketPath}` };

  t.test('the 11.8 image loads ha_rocksdb', async (t) => {
    t.match(version, /^11\.8\.\d+-MariaDB/);
    t.ok(hasRocksdb, 'mariadbd --plugin-load-add=ha_rocksdb --help lists its options');
  });

  /** One cycle of a scenario resolved as a campaign would resolve it (the engine's default trigger and expectation). */
  async function cycle(name: string, disk: { atomic?: number; fs?: 'ext4' | 'ext4-bigalloc16k' }, seed: number): Promise<CycleRecord> {
    const { settings } = resolveScenario({}, {
      name: `myrocks-${name}`, runtime: 'docker', image, server: { engine: 'rocksdb', bufferPool: 64 << 20 }, disk,
      load: { rows: 5000, maxSeconds: 150 },
    });
    const dir = join(work, settings.name);
    const record = await runCycle({
      id: settings.name, settings, cycle: 1, seed, expectation: settings.expect, dir,
      cacheRoot: PREPARED_CACHE, runtime, serverVersion: `${binary} ${version}`, repro: `rig repro ${dir}`,
    });
    t.comment(`${record.id}: ${record.verdict} in ${Object.values(record.timings).reduce((a, b) => a + (b ?? 0), 0)} ms (${JSON.stringify(record.timings)}); rocksdb writes ${JSON.stringify(record.rocksdbWrites)}; ${record.reason}`);
    return record;
  }

  /** What the oracle says of a MyRocks cycle, checked against its own evidence. */
  function assertCommitsKept(t: Test, record: CycleRecord): void {
    t.equal(record.expectation, 'commits-kept', 'the default for RocksDB tables, whatever the atomic unit');
    t.not(record.verdict, 'rig-error', record.reason);
    t.ok(record.reconciliation?.ok, "the scan agrees with the disk's record");
    t.ok(record.server?.innodb.includes('--innodb-doublewrite=ON'), "InnoDB's system pages keep doublewrite");
    t.ok(record.rocksdbWrites, 'the writes pending into RocksDB files are recorded');
    t.equal(record.expectationHeld, expectationHolds('commits-kept', record.verdict, record.tornPagesBefore.length), 'held as the oracle says');
    t.ok(record.expectationHeld, `${record.verdict}: ${record.reason}`);
    if (record.verdict === 'wal-tail-refused') {
      t.ok(walTailLost(record.rocksdbWrites), 'a log write was dropped or torn at the cut');
      t.ok(record.errorLog.events.some((e) => e.kind === 'rocksdb-wal'), 'the server named its log');
      return;
    }
    t.ok(record.serverStarted, 'the server started');
    t.ok(record.ledger.checked && record.ledger.acked > 0, `${record.ledger.acked} acknowledged commits checked`);
    t.equal(record.ledger.missing, 0, 'every acknowledged commit present');
    t.same(record.invariants.violations, [], 'the history and the ledger agree');
    t.same(record.checkTable.failed, [], 'CHECK TABLE passes on every table');
  }

  t.test('RocksDB tables, atomic 4k on ext4: every acknowledged commit kept, or a named refusal on a torn log tail', async (t) => {
    const record = await cycle('atomic4k', {}, 5);
    assertCommitsKept(t, record);
    t.same(record.settings.disk.trigger, { kind: 'armed', pendingPageWrites: 8 }, "the engine's default trigger");
  });

  t.test('RocksDB tables, atomic 16k on ext4 bigalloc: the same expectation, the same outcome', async (t) => {
    const record = await cycle('atomic16k', { atomic: 16384, fs: 'ext4-bigalloc16k' }, 6);
    t.equal(record.settings.disk.atomicUnit, 16384);
    assertCommitsKept(t, record);
  });

  t.test('engine rocksdb on MySQL 9.7: exit 2 before anything runs, one line', async (t) => {
    await ensureBuilt();
    const out = join(work, 'mysql-out');
    const run = await rig(['cycle', '--engine', 'rocksdb', '--runtime', 'docker', '--image', 'powercut-rig/mysql-offline:9.7', '--out', out], dockerHost);
    t.equal(run.exitCode, 2, run.stderr);
    t.equal(run.stderr.trim().split('\n').filter((l) => !/^rig: (?:using|starting) /.test(l)).length, 1, run.stderr);
    t.match(run.stderr, /^rig: engine: rocksdb needs MariaDB with its RocksDB plugin \(ha_rocksdb\.so, Debian's mariadb-plugin-rocksdb\); this server is 9\.7\.\d+.*: use engine: innodb, or an image such as powercut-rig\/mariadb-offline:11\.8$/m);
  });
}

t.test('engine rocksdb on the host MariaDB 10.11 (no mariadb-plugin-rocksdb): exit 2 before anything runs, one line', async (t) => {
  await ensureBuilt();
  const run = await rig(['cycle', '--engine', 'rocksdb', '--out', join(work, 'local-out')], {});
  t.equal(run.exitCode, 2, run.stderr);
  t.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  t.match(run.stderr, /^rig: engine: rocksdb needs MariaDB's RocksDB plugin \(ha_rocksdb\.so\), and mariadbd 10\.11\.\d+-MariaDB\S* on this host cannot load it: install mariadb-plugin-rocksdb, use runtime: docker with image powercut-rig\/mariadb-offline:11\.8, or use engine: innodb$/);
});

t.test('engine rocksdb in a campaign on the host MariaDB 10.11: the campaign stops before anything runs, exit 2, one line', async (t) => {
  await ensureBuilt();
  const file = join(work, 'rocksdb-on-1011.yml');
  writeFileSync(file, 'name: rocks\nscenarios:\n  - {name: myrocks, runtime: local, server: {engine: rocksdb}}\n');
  const out = join(work, 'rocks-out');
  const run = await rig(['campaign', file, '--out', out], {});
  t.equal(run.exitCode, 2, run.stderr);
  t.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  t.match(run.stderr, /^rig: .*rocksdb-on-1011\.yml: scenario myrocks: engine: rocksdb needs MariaDB's RocksDB plugin \(ha_rocksdb\.so\), and mariadbd 10\.11\.\d+\S* on this host cannot load it: /);
  t.notOk(existsSync(out), 'no results folder');
});
