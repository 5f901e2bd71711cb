/**
 * Oracle MySQL 9.7 in the image built with no registry (powercut-rig/mysql-offline:9.7), in real
 * crash cycles on the power-fail disk: one cycle per headline expectation, plus DETECT_ONLY, each
 * judged as its evidence says with MySQL's own doublewrite rules, and from the cuts the states the
 * claims are about, built on purpose: index pages torn whose only copy the rules accept come back
 * from the .dblwr files (with any page 0 that has such a copy, found through the survey), every
 * live page torn is detected. The redo checkpoint the rig reads from #innodb_redo is the one the
 * server names.
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
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { useDockerEngine } from '../fixtures/docker-engine.js';
import { keepEvidence } from '../fixtures/keep-evidence.js';
import { aimedState, hasAcceptedCopy, pastFileSpacePages, tableIndexPage } from '../fixtures/aimed-state.js';
import { recoveredByEvidence } from '../fixtures/judged-cycle.js';
import type { ProbedPage } from '../../rig/cycle/aim-plan.js';
import { expectationHolds } from '../../rig/results/expectation.js';
import type { Test } from 'tap';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const image = 'powercut-rig/mysql-offline:9.7';
/** A MySQL that hangs on torn pages need not cost two minutes. */
const BOUNDS = { startMs: 60_000 };
/**
 * With doublewrite off MySQL 9.7 hangs on torn pages (both cycles of that test did, each costing
 * its bound); it is ready within seconds otherwise, and a hang or a slow start with torn pages
 * holds the negative control alike. Either way the test asserts what the oracle says of the
 * verdict it got, so the bound only sets how long a hang costs.
 */
const DW_OFF_BOUNDS = { startMs: 20_000 };
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

  async function cycle(name: string, server: Partial<ServerSettings>, disk: Partial<ScenarioSettings['disk']>, seed = 4, bounds = BOUNDS): Promise<{ record: CycleRecord; log: string }> {
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
      cacheRoot: PREPARED_CACHE, runtime, serverVersion: `${binary} ${version}`, repro: `rig repro ${dir}`,
      recoveryBounds: bounds,
    });
    t.comment(`${record.id}: ${record.verdict}, ${record.tornPagesBefore.length} torn; ${record.reason}`);
    return { record, log: readFileSync(join(dir, 'error.log'), 'utf8') };
  }

  /** A cycle judged as its evidence says, whatever its cut hit; its evidence kept when it contradicts. */
  function assertJudged(t: Test, record: CycleRecord): void {
    t.not(record.verdict, 'rig-error', record.reason);
    t.ok(record.reconciliation?.ok, "the scan agrees with the disk's record");
    t.equal(record.expectationHeld, expectationHolds(record.expectation, record.verdict, record.tornPagesBefore.length), `held as the oracle says: ${record.verdict}`);
    if (record.expectation === 'recovers') t.equal(['restored', 'no-torn'].includes(record.verdict), recoveredByEvidence(record), `${record.verdict} follows the evidence of the recovery`);
    if (!record.expectationHeld) t.comment(`kept in ${keepEvidence(join(work, record.id), record.id)}`);
  }

  /** The state with every live page of the cut torn, every other write landed. */
  async function everyPageTorn(t: Test, record: CycleRecord, bounds = BOUNDS) {
    const aimed = await aimedState(join(work, record.id), join(work, `${record.id}-aimed`), record.settings, runtime, (p) => p.torn !== null, 'every live page torn', { most: Infinity, bounds });
    t.comment(`aimed: ${aimed.pages.length} pages torn; ${aimed.record.verdict}: ${aimed.record.reason}`);
    t.equal(aimed.record.tornPagesBefore.length, aimed.pages.length, 'every page the probe tore is torn');
    return { record: aimed.record, log: readFileSync(join(work, `${record.id}-aimed`, 'error.log'), 'utf8') };
  }

  /** The pages MySQL logged as restored from its doublewrite files, page 0 ("Restoring page") included. */
  const restoredInLog = (log: string) => new Set([...log.matchAll(/(?:Recovered|Restoring) page \[page id: space=(\d+), page number=(\d+)\]/g)].map((m) => `${m[1]}:${m[2]}`));

  t.test('doublewrite on, O_DIRECT, atomic 4k: the cut judged; torn pages come back from the .dblwr files', async (t) => {
    const { record, log } = await cycle('dw-on', {}, {});
    assertJudged(t, record);
    t.ok(record.server?.innodb.includes('--innodb-doublewrite=ON'));
    t.ok(record.server?.innodb.includes('--innodb-redo-log-capacity=96M'), "MySQL 9.7's redo option");
    const said = serverCheckpoint(log);
    if (Number.isNaN(said)) {
      // the server logs its checkpoint once it reads the redo log; a torn TRX_SYS page stops it before that
      t.ok(FINDINGS['mysql-trx-sys-page'].matches(record), 'the server logged no checkpoint only because it stopped on the TRX_SYS page before reading its redo log');
    } else t.equal(record.checkpointLsn, said, "the rig's #innodb_redo reader finds the server's checkpoint");
    t.ok(record.writeOrder?.checkpointLsn, `the write-order check reads the durable checkpoint from #innodb_redo (${record.writeOrder?.why ?? ''})`);

    // the claim, on a state built from this cut: pages whose one valid copy the rules accept
    // (with two, MySQL may take an older one first: docs/findings/mysql-stale-dblwr-copy.md)
    const oneCopy = (p: ProbedPage) => hasAcceptedCopy(p) && p.torn!.doublewrite.copies.filter((c) => c.valid).length === 1;
    const aimed = await aimedState(join(work, record.id), join(work, 'dw-on-aimed'), record.settings, runtime,
      (p) => oneCopy(p) && (tableIndexPage(p) || (p.page === 0 && p.file.endsWith('.ibd'))), 'index pages and page 0s with one accepted copy torn',
      { bounds: BOUNDS, earlier: tableIndexPage, orElse: (p) => oneCopy(p) && pastFileSpacePages(p) });
    const state = aimed.record;
    const stateLog = readFileSync(join(work, 'dw-on-aimed', 'error.log'), 'utf8');
    t.comment(`aimed: ${aimed.pages.map((p) => `${p.file}#${p.page}`).join(', ')} torn; ${state.verdict}: ${state.reason}`);
    // a cut that came while the server flushed only undo or dictionary pages has no table page to tear
    const pendingIndex = aimed.probed.some((p) => tableIndexPage(p) && oneCopy(p));
    t.ok(!pendingIndex || aimed.pages.some(tableIndexPage), 'index pages of the tables among them when the cut held any');
    t.equal(state.tornPagesBefore.length, aimed.pages.length, 'exactly the pages torn on purpose are torn');
    if (FINDINGS['mysql-page0-survey'].matches(state)) {
      // docs/findings/mysql-page0-survey.md: the survey chose another space id for a torn page 0 and missed its copy
      t.equal(state.verdict, 'detected', `the server refused on it: ${state.reason}`);
      t.match(stateLog, /Chosen space:\d+/, 'the server logged the space id its survey chose');
      return;
    }
    t.equal(state.verdict, 'restored', `the server restored them: ${state.reason}`);
    t.equal(state.ledger.missing, 0, 'every acknowledged commit present');
    // a page the redo recovery applies frees (a B-tree merge) holds no data
    const inUse = state.tornPagesBefore.filter((p) => !p.freedBefore && !p.freedAfter);
    t.ok(inUse.length > 0 && inUse.every((p) => p.validAfter && p.currentAfter && p.attribution === 'doublewrite'), `each of the ${inUse.length} in use: valid, current, through doublewrite`);
    // the rig's MySQL rules name exactly the pages the server says it restored
    const logged = restoredInLog(stateLog);
    t.same(state.tornPagesBefore.filter((p) => !logged.has(`${p.space}:${p.page}`)).map((p) => `${p.file}#${p.page}`), [], 'every page the rules call restorable, the server logged restoring');
    for (const p of state.tornPagesBefore.filter((x) => x.page === 0)) {
      t.equal(p.page0?.path, 'survey', `${p.file}: found through the 64-page survey`);
      t.equal(p.page0?.finding, null);
    }
  });

  t.test('doublewrite off, atomic 4k: the cut judged; with every live page torn the negative control holds', async (t) => {
    const { record } = await cycle('dw-off-4k', { doublewrite: false }, {}, 4, DW_OFF_BOUNDS);
    t.equal(record.expectation, 'torn-reproduced');
    t.ok((record.cut?.skipRanges ?? 0) > 0, 'the armed count passed over the temporary tablespaces');
    assertJudged(t, record);
    const { record: state } = await everyPageTorn(t, record, DW_OFF_BOUNDS);
    t.ok(state.expectationHeld, `torn pages reproduced: ${state.verdict}`);
  });

  t.test('doublewrite off, atomic 16k on bigalloc: never a torn page', async (t) => {
    const { record } = await cycle('dw-off-16k-bigalloc', { doublewrite: false }, { atomicUnit: 16384, fs: 'ext4-bigalloc16k' });
    t.equal(record.expectation, 'never-torn');
    t.equal(record.verdict, 'no-torn', record.reason);
    t.ok(record.expectationHeld);
  });

  t.test('DETECT_ONLY, atomic 4k: the cut judged; with every live page torn, the torn pages are detected, none restored from a copy', async (t) => {
    const { record } = await cycle('detect-only', { doublewrite: 'detect-only' }, {});
    t.ok(record.server?.innodb.includes('--innodb-doublewrite=DETECT_ONLY'));
    t.equal(record.expectation, 'detects');
    assertJudged(t, record);
    const { record: state, log } = await everyPageTorn(t, record);
    t.match(log, /Using '\.\/#ib_16384_0\.bdblwr' for doublewrite/, 'the reduced doublewrite file in use');
    t.equal(state.expectationHeld, expectationHolds('detects', state.verdict, state.tornPagesBefore.length), `held as the oracle says: ${state.verdict}`);
    t.notOk(state.tornPagesBefore.some((p) => p.attribution === 'doublewrite'), 'DETECT_ONLY keeps no copies: nothing is restored from one');
    if (state.verdict === 'detected') t.ok(state.errorLog.events.some((e) => e.kind === 'corruption'), 'the server named the corruption');
    else t.comment(`kept in ${keepEvidence(join(work, `${record.id}-aimed`), `${record.id}-aimed`)}: ${state.verdict}`);
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
