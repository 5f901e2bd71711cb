/**
 * The mysql-page0-survey finding (docs/findings/mysql-page0-survey.md), built on purpose: one load
 * of MySQL 9.7 with the `survey-bait` kind beside the write-only one, recorded; its bait tables'
 * first rows carry pads of DE AD BE EF, so a 2 KiB slice of their pages starts with the magic
 * MySQL's default checksum setting accepts on a compressed page. Then the moment a home write of
 * page 0 of a bait table was pending while a copy of exactly that page was durable in a .dblwr
 * file: that write torn, every other write landed. MySQL's survey for the torn page 0's space id
 * takes a bait slice for a 2 KiB compressed page, names the space id the bytes after it spell,
 * finds no copy of page 0 under it and stops. The same recording's page 0 of an sbtest table, torn
 * the same way, is found by the survey and restored from its copy. If MySQL ever restores the
 * bait table's page 0, this test fails and the write-up is out of date.
 */
import t from 'tap';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultExpectation } from '../../rig/campaign/default-expectation.js';
import { buildImages } from '../../rig/docker/build-images.js';
import { dockerPaths } from '../../rig/docker/paths.js';
import { contextFromEnv } from '../../rig/context.js';
import { FINDINGS } from '../../rig/findings/catalog.js';
import { readRecordedData } from '../../faults/recording.js';
import { baitPad, NO_CHECKSUM_MAGIC } from '../../rig/load/lifecycle/survey-bait.js';
import { FIL_PAGE_INDEX, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE } from '../../rig/pages/page-format.js';
import type { ScenarioSettings, ServerSettings } from '../../rig/results/types.js';
import { createDockerRuntime } from '../../rig/runtime/docker.js';
import { shippedProfile } from '../../faults/device-profile.js';
import { inRanges } from '../../rig/explore/state-targets.js';
import { homeWrites, judgeBarrier, recordOnce, type HomeWrite } from '../fixtures/recorded-states.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { useDockerEngine } from '../fixtures/docker-engine.js';

const image = 'powercut-rig/mysql-offline:9.7';
const runId = `mysql-survey-test-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'rig-survey-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
/** FIL_PAGE_TYPE_FSP_HDR: page 0 of a tablespace. */
const FSP_HDR = 8;
const PS = 16384;
/** The smallest page size MySQL's survey tries that a bait slice passes at. */
const SLICE = 2048;
const MAGIC = NO_CHECKSUM_MAGIC.readUInt32BE(0);
/** What a bait slice's bytes 34-37, where a page keeps its space id, read: the pattern from its third byte. */
const BAIT_SPACE = baitPad(FIL_PAGE_SPACE_ID + 4).readUInt32BE(FIL_PAGE_SPACE_ID);

const server: ServerSettings = { engine: 'innodb', doublewrite: true, flushMethod: 'O_DIRECT', pageSize: 16384, bufferPool: '64M', redoSize: '96M' };
const LOCAL = shippedProfile('local');
const disk = { profile: LOCAL.name, model: LOCAL.device, atomicUnit: 4096, fs: 'ext4' as const, trigger: { kind: 'at-time', ms: 8000 } as const, journalMaxBytes: 256 << 20, sizeBytes: 512 << 20 };
const settings: ScenarioSettings = {
  name: 'mysql-survey', runtime: 'docker', image, server, disk,
  load: { kind: 'builtin', connections: 4, tables: 4, rows: 5000, maxSeconds: 150, mix: { 'write-only': 3, 'survey-bait': 1 } },
  expect: defaultExpectation(server, disk),
};

// Every top-level await comes before the first subtest: tap ends the file once its queued
// subtests are done, and its teardown stops the engine.
const engine = await useDockerEngine(t, runId);
if (engine) {
  await buildImages({ docker: engine.docker, paths: dockerPaths(contextFromEnv().workDir), names: ['mysql-9.7'], log: (l) => t.comment(l) });
  const runtime = createDockerRuntime({ docker: engine.docker, image, runId });

  t.test('a torn page 0 of a bait table: the survey names the bait bytes and MySQL stops; an sbtest page 0 torn alike comes back', async (t) => {
    const rec = await recordOnce(settings, 1, join(work, 'recording'), PREPARED_CACHE, runtime);
    const home = homeWrites(rec);
    // what each home write holds, by content: the space ids the 2 KiB survey would read from its
    // slices that start with the magic (pages 1-7: the first 64 slices it reads), or sbtest rows
    const fd = openSync(rec.run.recordingPath, 'r');
    const sbtestSpaces = new Set<number>();
    const held = rec.barriers.writes.map((w) => {
      if (w.length !== PS || inRanges(w, rec.copyRanges)) return null;
      const data = readRecordedData(fd, w);
      const [space, number, type] = [data.readUInt32BE(FIL_PAGE_SPACE_ID), data.readUInt32BE(FIL_PAGE_OFFSET), data.readUInt16BE(FIL_PAGE_TYPE)];
      if (type !== FIL_PAGE_INDEX) return null;
      if (!sbtestSpaces.has(space) && /\d{11}-\d{11}-\d{11}/.test(data.toString('latin1'))) sbtestSpaces.add(space);
      if (number === 0 || number >= 8) return null;
      const named = Array.from({ length: PS / SLICE - 1 }, (_, i) => (i + 1) * SLICE)
        .filter((at) => data.readUInt32BE(at) === MAGIC)
        .map((at) => data.readUInt32BE(at + FIL_PAGE_SPACE_ID));
      return { key: `${space}:${number}`, named };
    });
    closeSync(fd);
    // the state is every write up to the barrier's last pending one landed but page 0: the survey
    // must choose the bait's space id when the latest of those writes to the table's pages 1-7 hold
    // slices that pass, and every one of them names that space id
    const latest = new Map<string, number[]>();
    let upTo = 0;
    const baitedAt = (h: HomeWrite): boolean => {
      for (const end = h.barrier.durableCount + h.barrier.pending.length; upTo < end; upTo++) {
        const w = held[upTo];
        if (w) latest.set(w.key, w.named);
      }
      const named = [...latest].filter(([key]) => key.startsWith(`${h.page.space}:`)).flatMap(([, n]) => n);
      return named.length > 0 && named.every((space) => space === BAIT_SPACE);
    };
    const page0s = home.filter((h) => h.page.number === 0 && h.page.type === FSP_HDR && h.page.space !== 0 && h.durableCopy);
    const bait = page0s.find(baitedAt);
    const sbtest = page0s.find((h) => sbtestSpaces.has(h.page.space));
    t.comment(`recorded ${rec.barriers.writes.length} writes, ${page0s.length} page 0 home writes with a durable copy; bait table page 0 ${bait ? `space ${bait.page.space} at barrier ${bait.barrier.index}` : 'none'} with its slices on the disk`);
    if (!bait) return t.fail('the recording holds no home write of a bait table page 0 with a durable copy while its bait slices were on the disk');

    const judge = async (h: HomeWrite, name: string) => {
      const state = await judgeBarrier(rec, h.barrier, new Map([[h.write.seq, 'torn']]), `page 0 of space ${h.page.space} torn`, join(work, name), runtime);
      const log = readFileSync(join(work, name, 'state', 'error.log'), 'utf8');
      t.comment(`${name}: barrier ${h.barrier.index}, space ${h.page.space}: ${state.record.verdict}: ${state.record.reason}`);
      return { record: state.record, log };
    };

    const { record, log } = await judge(bait, 'bait');
    for (const line of log.split('\n').filter((l) => /Page size:|VALID:|Chosen space|doublewrite buffer|FATAL/.test(l)).slice(0, 12)) t.comment(line.replace(/^\S+ \d+ /, ''));
    const torn = record.tornPagesBefore.find((p) => p.page === 0);
    t.equal(record.tornPagesBefore.length, 1, 'one page torn: that page 0');
    // the bait table is known by its pages' content; while TRUNCATE replaces it, MySQL has renamed
    // its old file to #sql-ib<table id>-<n>.ibd, so a cut then finds the bait's page 0 under that name
    t.equal(torn?.space, bait.page.space, `of the bait table's space (${bait.page.space})`);
    t.match(torn?.file ?? '', /\/(bait_c\d|#sql-ib\d+-\d+)\.ibd$/, `in its file, or the name TRUNCATE gave it (${torn?.file})`);
    t.ok(torn?.doublewrite.restorable, `its copy is one MySQL's lookup under the file's own space id accepts (${torn?.doublewrite.why})`);
    t.match(log, new RegExp(`VALID: space:${BAIT_SPACE} page_no:\\d+ page_size:2048`), 'the 2 KiB survey took a bait slice for a compressed page');
    t.match(log, new RegExp(`Chosen space:${BAIT_SPACE}\\b`), `and chose the space id the pattern spells (${BAIT_SPACE})`);
    t.match(log, /could not be found in the doublewrite buffer/, "page 0's copy was looked up under that space id and not found");
    t.equal(record.serverStarted, false, 'the server did not start');
    t.equal(record.verdict, 'detected');
    t.ok(FINDINGS['mysql-page0-survey'].matches(record), 'the finding is named');

    if (!sbtest) return t.fail('the recording holds no page 0 write of an sbtest table with a durable copy');
    const control = await judge(sbtest, 'control');
    const tornControl = control.record.tornPagesBefore.find((p) => p.page === 0);
    t.match(tornControl?.file ?? '', /sbtest\d\.ibd$/, 'control: an sbtest table');
    t.match(control.log, new RegExp(`Chosen space:${sbtest.page.space}\\b`), "control: the survey chose the file's own space id");
    t.equal(control.record.verdict, 'restored', `control: page 0 restored from its copy: ${control.record.reason}`);
    t.notOk(FINDINGS['mysql-page0-survey'].matches(control.record), 'control: not the finding');
  });
}
