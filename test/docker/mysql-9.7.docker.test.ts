/**
 * Oracle MySQL 9.7 in the image built with no registry (powercut-rig/mysql-offline:9.7), in real
 * crash cycles on the power-fail disk: one cycle per headline expectation, each judged by the
 * oracle with MySQL's own doublewrite rules, plus DETECT_ONLY; the redo checkpoint the rig reads
 * from #innodb_redo is the one the server names; torn page 0 of an .ibd comes back on MySQL.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultExpectation } from '../../rig/campaign/default-expectation.js';
import { runCycle } from '../../rig/cycle/run-cycle.js';
import { buildImages } from '../../rig/docker/build-images.js';
import { FINDINGS } from '../../rig/findings/catalog.js';
import { dockerPaths } from '../../rig/docker/paths.js';
import { contextFromEnv } from '../../rig/context.js';
import type { CycleRecord, ScenarioSettings, ServerSettings } from '../../rig/results/types.js';
import { createDockerRuntime } from '../../rig/runtime/docker.js';
import { ensureBuilt, rig } from '../fixtures/rig-cli.js';
import { useDockerEngine } from '../fixtures/docker-engine.js';
import { keepEvidence } from '../fixtures/keep-evidence.js';
import type { Test } from 'tap';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const image = 'powercut-rig/mysql-offline:9.7';
const runId = `mysql97-test-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'rig-docker-97-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

/** The checkpoint MySQL 8.0.30+ says recovery starts from ("The latest found checkpoint is at lsn = N in ..."). */
const serverCheckpoint = (log: string) => Number(/The latest found checkpoint is at lsn = (\d+) in redo log file/.exec(log)?.[1] ?? NaN);

// Every top-level await (the engine, the image build, describe) comes before the first subtest:
// tap ends the file once its queued subtests are done, and its teardown stops the engine.
const engine = await useDockerEngine(t, runId);
if (engine) {
  const started = Date.now();
  const built = await buildImages({ docker: engine.docker, paths: dockerPaths(contextFromEnv().workDir), names: ['mysql-9.7'], log: (l) => t.comment(l) });
  t.comment(`image ${built[0]?.status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const runtime = createDockerRuntime({ docker: engine.docker, image, runId });
  const { server: binary, version } = await runtime.describe();

  t.test('describe names MySQL 9.7; rig images list shows the image built from sid', async (t) => {
    t.equal(binary, 'mysqld');
    t.match(version, /^9\.7\.\d+/);
    // DOCKER_HOST names the test's engine: the command uses it and leaves it running
    await ensureBuilt();
    const list = await rig(['images', 'list'], { DOCKER_HOST: `unix://${engine.socketPath}` });
    t.equal(list.exitCode, 0, String(list.stderr));
    t.match(list.stdout, /^mysql-9\.7 +powercut-rig\/mysql-offline:9\.7 +offline \(sid\) +built, \d+ MB/m);
    t.match(list.stdout, /^base +powercut-rig\/debian-base:sid +debootstrap +built/m);
  });

  async function cycle(name: string, server: Partial<ServerSettings>, disk: Partial<ScenarioSettings['disk']>, seed = 4): Promise<{ record: CycleRecord; log: string }> {
    const serverSettings: ServerSettings = { engine: 'innodb', doublewrite: true, flushMethod: 'O_DIRECT', pageSize: 16384, bufferPool: '64M', redoSize: '96M', ...server };
    const diskSettings = { profile: LOCAL.name, model: LOCAL.device, atomicUnit: 4096, fs: 'ext4' as const, trigger: { kind: 'armed', pendingPageWrites: 16 } as const, journalMaxBytes: 256 << 20, sizeBytes: 512 << 20, ...disk };
    const settings: ScenarioSettings = {
      name: `docker-97-${name}`, runtime: 'docker', image, server: serverSettings, disk: diskSettings,
      load: { kind: 'builtin', connections: 4, tables: 4, rows: 5000, maxSeconds: 150 },
      expect: defaultExpectation(serverSettings, diskSettings),
    };
    const dir = join(work, settings.name);
    const record = await runCycle({
      id: settings.name, settings, cycle: 1, seed, expectation: settings.expect, dir,
      cacheRoot: join(work, 'cache'), runtime, serverVersion: `${binary} ${version}`, repro: `rig repro ${dir}`,
      recoveryBounds: { startMs: 60_000 }, // a MySQL that hangs on torn pages need not cost two minutes
    });
    t.comment(`${record.id}: ${record.verdict}, ${record.tornPagesBefore.length} torn; ${record.reason}`);
    return { record, log: readFileSync(join(dir, 'error.log'), 'utf8') };
  }

  /**
   * The first of a few seeds whose cut tears pages, a claim about torn pages needing a cycle that
   * has some. MySQL 9.7 writes its temporary tablespaces (ibtmp1, #innodb_temp) in a burst of
   * about 45 pages early in the load; the armed count passes over them (the cut's skip ranges),
   * else an `armed 16` cut lands in that burst, on pages no check reads.
   */
  async function tornCycle(t: Test, name: string, server: Partial<ServerSettings>, seeds: number[]): Promise<{ record: CycleRecord; log: string }> {
    for (const seed of seeds) {
      const run = await cycle(`${name}-${seed}`, server, {}, seed);
      t.ok((run.record.cut?.skipRanges ?? 0) > 0, `seed ${seed}: the armed count passed over the temporary tablespaces`);
      if (run.record.tornPagesBefore.length > 0) return run;
      t.equal(run.record.verdict, 'no-torn', `seed ${seed}: nothing torn, so no-torn (${run.record.reason})`);
    }
    throw new Error(`no cut of seeds ${seeds.join(', ')} tore a page`);
  }

  /** The pages MySQL logged as restored from its doublewrite files, page 0 ("Restoring page") included. */
  const restoredInLog = (log: string) => new Set([...log.matchAll(/(?:Recovered|Restoring) page \[page id: space=(\d+), page number=(\d+)\]/g)].map((m) => `${m[1]}:${m[2]}`));

  t.test('doublewrite on, O_DIRECT, atomic 4k: torn pages come back from the .dblwr files, page 0 too', async (t) => {
    const { record, log } = await cycle('dw-on', {}, {});
    t.not(record.verdict, 'rig-error', record.reason);
    t.ok(record.reconciliation?.ok, "the scan agrees with the disk's record");
    t.ok(record.tornPagesBefore.length > 0, 'the cut tore pages');
    t.ok(record.server?.innodb.includes('--innodb-doublewrite=ON'));
    t.ok(record.server?.innodb.includes('--innodb-redo-log-capacity=96M'), "MySQL 9.7's redo option");
    const said = serverCheckpoint(log);
    if (Number.isNaN(said)) {
      // the server logs its checkpoint once it reads the redo log; a torn TRX_SYS page stops it before that
      t.ok(FINDINGS['mysql-trx-sys-page'].matches(record), 'the server logged no checkpoint only because it stopped on the TRX_SYS page before reading its redo log');
      t.ok((record.checkpointLsn ?? 0) > 0, `the rig's #innodb_redo reader found a checkpoint (${record.checkpointLsn})`);
    } else t.equal(record.checkpointLsn, said, "the rig's #innodb_redo reader finds the server's checkpoint");
    t.ok(record.writeOrder?.checkpointLsn, `the write-order check reads the durable checkpoint from #innodb_redo (${record.writeOrder?.why ?? ''})`);
    t.ok((record.writeOrder?.pagesChecked ?? 0) > 0, 'and checks the pending page versions against it');
    if (FINDINGS['mysql-trx-sys-page'].matches(record)) {
      // the one known exception (docs/findings/mysql-trx-sys-page.md): a torn TRX_SYS page stops the server before it reads its copies
      t.equal(record.verdict, 'detected', `the server refused on it: ${record.reason}`);
      t.match(log, /Database page corruption on disk or a failed file read of page \[page id: space=0, page number=5\]/, 'the server names ibdata1 page 5');
      t.notOk(record.tornPagesBefore.find((p) => p.file === './ibdata1' && p.page === 5)?.doublewrite.restorable, "MySQL's rules say its copy is never used");
      return;
    }
    if (FINDINGS['mysql-page0-survey'].matches(record)) {
      // docs/findings/mysql-page0-survey.md: the survey chose another space id for a torn page 0 and missed its copy
      t.equal(record.verdict, 'detected', `the server refused on it: ${record.reason}`);
      t.match(log, /Chosen space:\d+/, 'the server logged the space id its survey chose');
      return;
    }
    if (FINDINGS['mysql-stale-dblwr-copy'].matches(record)) {
      // docs/findings/mysql-stale-dblwr-copy.md: it wrote a copy older than the checkpoint over a torn page that had a newer one
      const stale = record.tornPagesBefore.find((p) => p.doublewrite.copies.some((c) => c.accepted && c.lsn < (record.checkpointLsn ?? 0)))!;
      t.ok(restoredInLog(log).has(`${stale.space}:${stale.page}`), `the server logged restoring [${stale.space}, ${stale.page}]`);
      t.notOk(record.expectationHeld, `and did not recover: ${record.verdict}: ${record.reason}`);
      return;
    }
    t.ok(['restored', 'no-torn'].includes(record.verdict) && record.expectationHeld, `recovers: ${record.verdict}: ${record.reason}`);
    t.equal(record.ledger.missing, 0, 'every acknowledged commit present');
    const inUse = record.tornPagesBefore.filter((p) => !p.freedBefore && !p.freedAfter);
    t.ok(inUse.every((p) => p.validAfter && p.currentAfter), 'every torn page in use valid and current after recovery');
    t.ok(inUse.every((p) => p.attribution === 'doublewrite'), 'all restored from doublewrite copies');
    // the rig's MySQL rules name exactly the pages the server says it restored
    const restorable = new Set(record.tornPagesBefore.filter((p) => p.doublewrite.restorable).map((p) => `${p.space}:${p.page}`));
    const logged = restoredInLog(log);
    t.same([...restorable].filter((k) => !logged.has(k)), [], 'every page the rules call restorable, the server restored');
    for (const p of record.tornPagesBefore.filter((x) => x.page === 0)) {
      t.equal(p.page0?.path, 'survey', `${p.file}: found through the 64-page survey`);
      t.ok(p.validAfter, `${p.file} page 0 restored (${p.page0?.serverLog.join(' | ')})`);
      t.equal(p.page0?.finding, null);
    }
  });

  t.test('doublewrite off, atomic 4k: the negative control tears pages; the server refuses or hangs', async (t) => {
    const { record } = await tornCycle(t, 'dw-off-4k', { doublewrite: false }, [2, 3, 4, 5]);
    t.equal(record.expectation, 'torn-reproduced');
    t.ok(record.tornPagesBefore.length > 0, 'torn pages in the crash image');
    t.ok(record.expectationHeld, `${record.verdict}: ${record.reason}`);
    // both seen on 9.7: an assertion after "Database page corruption" (exit code 2), or silence
    // after a dozen such lines until the bound
    t.ok(['detected', 'hung'].includes(record.verdict), `MySQL stops or hangs: ${record.verdict}`);
  });

  t.test('doublewrite off, atomic 16k on bigalloc: never a torn page', async (t) => {
    const { record } = await cycle('dw-off-16k-bigalloc', { doublewrite: false }, { atomicUnit: 16384, fs: 'ext4-bigalloc16k' });
    t.equal(record.expectation, 'never-torn');
    t.equal(record.verdict, 'no-torn', record.reason);
    t.ok(record.expectationHeld);
  });

  t.test('DETECT_ONLY, atomic 4k: torn pages detected (the server refuses and names one), none restored', async (t) => {
    const { record, log } = await tornCycle(t, 'detect-only', { doublewrite: 'detect-only' }, [2, 3, 4, 5]);
    if (record.verdict !== 'detected') t.comment(`kept in ${keepEvidence(join(work, record.id), record.id)}`);
    t.ok(record.server?.innodb.includes('--innodb-doublewrite=DETECT_ONLY'));
    t.equal(record.expectation, 'detects');
    t.ok(record.tornPagesBefore.length > 0, 'torn pages in the crash image');
    t.equal(record.verdict, 'detected', record.reason);
    t.ok(record.expectationHeld);
    t.ok(record.errorLog.events.some((e) => e.kind === 'corruption'), 'the server named the corruption');
    t.match(log, /Using '\.\/#ib_16384_0\.bdblwr' for doublewrite/, 'the reduced doublewrite file in use');
  });
}

t.test('doublewrite: detect-only on MariaDB 10.11 (the host server) stops the campaign before anything runs: exit 2, one line', async (t) => {
  await ensureBuilt();
  const file = join(work, 'detect-on-1011.yml');
  writeFileSync(file, 'name: detect\nscenarios:\n  - {name: dw-detect, runtime: local, server: {doublewrite: detect-only}}\n');
  const run = await rig(['campaign', file, '--out', join(work, 'detect-out')], {});
  t.equal(run.exitCode, 2, run.stderr);
  t.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  t.match(run.stderr, /^rig: .*detect-on-1011\.yml: scenario dw-detect: doublewrite: detect-only needs MySQL 8\.0\.30 or later .*this server is (?:mariadbd )?10\.11\.\d+-MariaDB.*: use doublewrite: on or off, or a MySQL image such as powercut-rig\/mysql-offline:9\.7$/);
});
