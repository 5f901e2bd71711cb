/**
 * The oracle against the real server, on crash images changed on purpose between the stages:
 * - a doublewrite copy made older than the checkpoint: the oracle says the server will not use it,
 *   and the real mariadbd indeed does not restore that page;
 * - a torn page put back to its durable (older, valid) version after recovery: the oracle calls
 *   the cycle corruption, since the page lost its newest write, though every page verifies;
 * - a torn page left after recovery with its newest version's content under an older LSN (as
 *   MySQL 9.7 leaves a page whose newest write changed nothing but its LSN): current, by content.
 * One real cycle (doublewrite on) gives the cut, whatever it tore; the base state is built from it
 * on purpose: index pages of the tables torn whose doublewrite copies the server's rules accept,
 * every other pending write landed, judged `restored`. The page the cases change is one the
 * server's own log says it restored from its copy in that state: a page the redo log initialises
 * since the checkpoint is rebuilt without its copy ever being read, so spoiling its copy would
 * prove nothing. Each case rebuilds that crash image, changes it, and runs the later stages itself.
 */
import t from 'tap';

type Tap = import('tap').Test;
import { mkdtempSync, openSync, readFileSync, readSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { materializeCrashImage } from '../../faults/materialize.js';
import type { CrashPlan } from '../../faults/crash-plan.js';
import { loadJournal } from '../../faults/journal.js';
import { startDisk } from '../../faults/start-disk.js';
import { defaultExpectation } from '../../rig/campaign/default-expectation.js';
import { diskOptionsFor } from '../../rig/cycle/disk-options.js';
import { runCycle } from '../../rig/cycle/run-cycle.js';
import { datadirOn } from '../../rig/cycle/server-dirs.js';
import { fullCrc32Checksum } from '../../rig/pages/checksums.js';
import type { CycleRecord, ScenarioSettings, ServerSettings, TornPage } from '../../rig/results/types.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import type { CrashEdit } from '../../rig/cycle/judge-cut.js';
import { aimedState, hasAcceptedCopy, pastFileSpacePages, tableIndexPage } from '../fixtures/aimed-state.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { rejudge } from '../fixtures/rejudge.js';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const work = mkdtempSync(join(tmpdir(), 'rig-oracle-faults-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const runtime = createLocalRuntime();
const PS = 16384;

const server: ServerSettings = { engine: 'innodb', doublewrite: true, flushMethod: 'O_DIRECT', pageSize: PS, bufferPool: '64M', redoSize: '96M' };
const disk = { profile: LOCAL.name, model: LOCAL.device, atomicUnit: 4096, fs: 'ext4', trigger: { kind: 'armed', pendingPageWrites: 16 }, journalMaxBytes: 256 << 20, sizeBytes: 512 << 20 } as const;
const settings: ScenarioSettings = {
  name: 'oracle-faults', runtime: 'local', server, disk,
  load: { kind: 'builtin', connections: 4, tables: 4, rows: 5000, maxSeconds: 150 },
  expect: defaultExpectation(server, disk),
};

/** Rebuilds the base state's crash image, applies the edit, and runs scan, recover, scan and judge. */
async function judgeTampered(base: Base, name: string, edit: CrashEdit): Promise<CycleRecord> {
  const { record, teardownProblems } = await rejudge(base.dir, join(work, name), { ...settings, name }, runtime, { plan: base.plan, edit });
  t.comment(`${name}: ${record.verdict}: ${record.reason}`);
  t.same(teardownProblems, [], `${name}: torn down cleanly`);
  return record;
}

function patchPage(path: string, pageNo: number, change: (page: Buffer) => void): void {
  const fd = openSync(path, 'r+');
  try {
    const page = Buffer.alloc(PS);
    readSync(fd, page, 0, PS, pageNo * PS);
    change(page);
    writeSync(fd, page, 0, PS, pageNo * PS);
  } finally {
    closeSync(fd);
  }
}

/** Sets a full_crc32 page's LSN (header and trailer) and stamps its checksum again: a valid page. */
function setLsn(page: Buffer, lsn: number): void {
  page.writeBigUInt64BE(BigInt(lsn), 16);
  page.writeUInt32BE(lsn >>> 0, PS - 8);
  page.writeUInt32BE(fullCrc32Checksum(page), PS - 4);
}

interface Base {
  dir: string; // the live cycle, whose cut the state is built from
  plan: CrashPlan; // the base state's plan
  record: CycleRecord;
  page: TornPage;
}

/** The server's log names the page as restored from the doublewrite buffer. */
function logRestored(record: CycleRecord, p: TornPage): boolean {
  return record.errorLog.events.some((e) => e.kind === 'doublewrite-restore' && e.space === p.space && e.page === p.page);
}

/** The live cycle, then the state with its tables' index pages torn where an accepted copy exists. */
async function baseState(t: Tap): Promise<Base> {
  const dir = join(work, 'live');
  const { server: name, version } = await runtime.describe();
  const live = await runCycle({
    id: 'live', settings, cycle: 1, seed: 1, expectation: settings.expect, dir, cacheRoot: PREPARED_CACHE,
    runtime, serverVersion: `${name} ${version}`, repro: `rig repro ${dir}`,
  });
  t.comment(`live: ${live.verdict}: ${live.reason}`);
  const aimed = await aimedState(dir, join(work, 'base'), settings, runtime, (p) => tableIndexPage(p) && hasAcceptedCopy(p), 'index pages with an accepted copy torn',
    { earlier: tableIndexPage, orElse: (p) => pastFileSpacePages(p) && hasAcceptedCopy(p) });
  const { record } = aimed;
  t.comment(`base: ${aimed.pages.map((p) => `${p.file} page ${p.page}`).join(', ')} torn; ${record.verdict}: ${record.reason}`);
  t.equal(record.verdict, 'restored', 'the server restored every page torn on purpose');
  const page = record.tornPagesBefore.find((p) => p.attribution === 'doublewrite' && p.doublewrite.restorable && logRestored(record, p));
  if (!page) throw new Error(`no page of the base state was restored through doublewrite by the server's log: ${record.reason}`);
  return { dir, plan: JSON.parse(readFileSync(join(work, 'base', 'plan.json'), 'utf8')) as CrashPlan, record, page };
}

t.test('the oracle agrees with the server on copies and on what restored means', async (t) => {
  const base = await baseState(t);
  const { page } = base;
  t.ok(page.doublewrite.copies.length > 0, `base: ${page.file} page ${page.page} was restored from ${page.doublewrite.why}`);

  await t.test('a doublewrite copy older than the checkpoint restores nothing', async (t) => {
    const checkpoint = base.record.checkpointLsn!;
    const record = await judgeTampered(base, 'copy-before-checkpoint', {
      beforeScan: (datadir) => {
        for (const c of page.doublewrite.copies) patchPage(join(datadir, c.source), c.slot, (p) => setLsn(p, checkpoint - 1));
      },
    });
    t.ok(record.reconciliation?.ok, 'the tampered copy does not disturb the truth');
    const judged = record.tornPagesBefore.find((p) => p.file === page.file && p.page === page.page)!;
    t.notOk(judged.doublewrite.restorable, `the oracle: ${judged.doublewrite.why}`);
    t.match(judged.doublewrite.copies[0]?.why ?? '', /older than the checkpoint/);
    t.notOk(logRestored(record, judged), 'the server did not take the copy: its log names no restore of the page');
    if (judged.validAfter) {
      // the log initialises the page after the checkpoint: recovery rebuilt it without reading it
      t.equal(judged.attribution, 'redo', `valid after recovery only as the redo log rebuilt it (${record.verdict})`);
      t.equal(judged.currentAfter, true, 'with its newest content');
    } else {
      t.notOk(['restored', 'no-torn', 'rig-error'].includes(record.verdict), `not restored, and the cycle is a finding: ${record.verdict}`);
    }
  });

  await t.test('a torn page put back to its older version after recovery is corruption, though it verifies', async (t) => {
    const durable = await versionOf(base.dir, page, 'dropped');
    const record = await judgeTampered(base, 'restored-older', {
      afterRecovery: (datadir) => patchPage(join(datadir, page.file), page.page, (p) => durable.copy(p)),
    });
    const judged = record.tornPagesBefore.find((p) => p.file === page.file && p.page === page.page)!;
    t.equal(judged.validAfter, true, 'the page verifies after recovery');
    t.equal(judged.lsnAfter, page.durableLsn, `at its durable LSN ${page.durableLsn}`);
    t.equal(judged.currentAfter, false, `older than the newest version written before the cut (${page.newestLsn})`);
    t.equal(record.verdict, 'silent-corruption', record.reason);
    t.match(record.reason, /restored to a version older than the newest written before the cut/);
  });

  await t.test("a torn page left with its newest version's content under an older LSN lost nothing", async (t) => {
    const newest = await versionOf(base.dir, page, 'landed');
    const record = await judgeTampered(base, 'same-content-older-lsn', {
      afterRecovery: (datadir) => patchPage(join(datadir, page.file), page.page, (p) => {
        newest.copy(p);
        setLsn(p, page.newestLsn! - 1);
      }),
    });
    const judged = record.tornPagesBefore.find((p) => p.file === page.file && p.page === page.page)!;
    t.equal(judged.lsnAfter, page.newestLsn! - 1, 'under an LSN older than the newest version');
    t.equal(judged.currentAfter, true, 'the content is the newest version');
    t.equal(judged.currentBy, 'content');
    t.equal(record.verdict, 'restored', record.reason);
  });
});

/**
 * The page as every pending write `dropped` leaves it (its durable version before the cut) or as
 * every one `landed` leaves it (its newest version).
 */
async function versionOf(baseDir: string, page: TornPage, fate: 'dropped' | 'landed'): Promise<Buffer> {
  const cut = join(baseDir, 'cut');
  const journal = loadJournal(join(cut, 'journal.bin'));
  const plan = JSON.parse(readFileSync(join(cut, 'plan.json'), 'utf8')) as CrashPlan;
  const all: CrashPlan = { ...plan, writes: plan.writes.map((w) => ({ ...w, fate, unitsLanded: fate === 'landed' ? Array.from({ length: w.units }, (_, i) => i) : [] })) };
  const dir = join(work, fate);
  const image = join(work, `${fate}.img`);
  await materializeCrashImage(join(cut, 'image.img'), journal, all, image);
  const disk = await startDisk(diskOptionsFor(settings, dir, { adoptImage: image }));
  try {
    const bytes = Buffer.alloc(PS);
    const fd = openSync(join(datadirOn(disk.target), page.file), 'r');
    readSync(fd, bytes, 0, PS, page.page * PS);
    closeSync(fd);
    return bytes;
  } finally {
    await disk.down();
  }
}
