/**
 * Evidence under the cap, on real files in a temp folder: images written with real bytes (their
 * allocated blocks are what counts) and sparse ones (whose length must not count).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { parseCampaign } from '../../rig/campaign/load-campaign.js';
import { allocatedBytes } from '../../rig/campaign/allocated-bytes.js';
import { EvidenceKeeper } from '../../rig/campaign/evidence.js';
import { DEFAULT_EVIDENCE_KEEP, type EvidencePolicy } from '../../rig/campaign/evidence-policy.js';
import type { CycleRecord, Verdict } from '../../rig/results/types.js';
import { cycleRecord } from '../fixtures/cycle-record.js';

const campaign = parseCampaign('name: c\nscenarios:\n  - {name: dw-on}\n', 'c.yml');
const settings = campaign.scenarios[0]!.settings; // expects `recovers`
const KiB = 1024;
const policy = (maxBytes: number): EvidencePolicy => ({ keep: DEFAULT_EVIDENCE_KEEP, sample: 0, maxBytes });

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'rig-evidence-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A cycle folder as runCycle leaves it, with an image of `imageKiB` real bytes. */
function cycleFolder(resultsDir: string, n: number, verdict: Verdict, torn: number, imageKiB: number): { record: CycleRecord; dir: string } {
  const record = cycleRecord({ id: `dw-on-${n}`, scenario: 'dw-on', cycle: n, seed: n }, settings, verdict, torn, {
    expectationHeld: verdict === 'restored' || verdict === 'no-torn',
  });
  const dir = join(resultsDir, 'cycles', record.id);
  mkdirSync(join(dir, 'cut'), { recursive: true });
  writeFileSync(join(dir, 'cut', 'image.img'), Buffer.alloc(imageKiB * KiB, 1));
  writeFileSync(join(dir, 'cut', 'journal.bin'), Buffer.alloc(4 * KiB, 2));
  writeFileSync(join(dir, 'cut', 'plan.json'), '{}');
  writeFileSync(join(dir, 'error.log'), 'log\n');
  return { record, dir };
}

const savedRecord = (dir: string) => JSON.parse(readFileSync(join(dir, 'cycle.json'), 'utf8')) as CycleRecord;

t.test('a sparse image counts by its allocated blocks, not its length', async (t) => {
  const dir = tempDir(t);
  const image = join(dir, 'image.img');
  writeFileSync(image, Buffer.alloc(64 * KiB, 1));
  truncateSync(image, 1024 * 1024 * 1024);
  const bytes = allocatedBytes(dir);
  t.ok(bytes >= 64 * KiB && bytes < 1024 * KiB, `${bytes} allocated bytes for 64 KiB written into 1 GiB`);
  t.equal(allocatedBytes(join(dir, 'missing')), 0);
});

t.test('a torn or failing cycle keeps its evidence; a clean one sheds its image', async (t) => {
  const results = tempDir(t);
  const keeper = new EvidenceKeeper(results, policy(100 * 1024 * KiB), (line) => t.fail(line));
  const clean = cycleFolder(results, 1, 'no-torn', 0, 64);
  const torn = cycleFolder(results, 2, 'restored', 3, 64);
  const failing = cycleFolder(results, 3, 'silent-corruption', 2, 64);
  for (const c of [clean, torn, failing]) keeper.settle(c.record, c.dir);
  t.equal(clean.record.evidenceDir, null);
  t.notOk(existsSync(join(clean.dir, 'cut', 'image.img')), 'the clean cycle sheds its image');
  t.ok(existsSync(join(clean.dir, 'cut', 'plan.json')) && existsSync(join(clean.dir, 'error.log')), 'and keeps the small files');
  t.equal(torn.record.evidenceDir, 'cycles/dw-on-2');
  t.equal(failing.record.evidenceDir, 'cycles/dw-on-3');
  for (const c of [clean, torn, failing]) t.same(savedRecord(c.dir), c.record, `${c.record.id}: cycle.json rewritten`);
});

t.test('evidence.keep chooses which cycles keep evidence, and each record says why', async (t) => {
  const settle = (keep: EvidencePolicy['keep'], sample = 0) => {
    const results = tempDir(t);
    const keeper = new EvidenceKeeper(results, { keep, sample, maxBytes: 100 * 1024 * KiB }, (line) => t.fail(line));
    const cycles = [cycleFolder(results, 1, 'no-torn', 0, 16), cycleFolder(results, 2, 'restored', 3, 16), cycleFolder(results, 3, 'silent-corruption', 2, 16)];
    for (const c of cycles) keeper.settle(c.record, c.dir);
    return cycles.map((c) => c.record.evidence!);
  };
  const byDefault = settle(DEFAULT_EVIDENCE_KEEP);
  t.same(byDefault.map((e) => e.kept), [null, 'torn', 'contradicting']);
  t.equal(byDefault[0]!.why, 'not asked for: evidence.keep is contradicting, findings, torn');
  t.equal(byDefault[1]!.why, 'its crash image held 3 torn page(s)');
  t.equal(byDefault[2]!.why, 'it contradicted recovers (silent-corruption)');
  t.ok(byDefault[1]!.bytes >= 16 * KiB, `the kept evidence's size is recorded: ${byDefault[1]!.bytes}`);
  t.same(settle(['contradicting']).map((e) => e.kept), [null, null, 'contradicting'], 'only what contradicted');
  const sampled = settle(['contradicting', 'sample'], 2);
  t.same(sampled.map((e) => e.kept), ['sample', 'sample', 'contradicting'], 'the first two of the scenario, and what contradicted');
  t.equal(sampled[0]!.why, 'a sample: the first 2 of its scenario');
  t.same(settle(['all']).map((e) => e.kept), ['all', 'all', 'all']);
});

t.test('a cycle whose disk saw the write-ahead order broken keeps its evidence, torn or not', async (t) => {
  const results = tempDir(t);
  const keeper = new EvidenceKeeper(results, policy(100 * 1024 * KiB), (line) => t.fail(line));
  const reordered = cycleFolder(results, 1, 'no-torn', 0, 64);
  reordered.record.writeOrder = { checkpointLsn: 500, pagesChecked: 2, pendingVersions: 2, violationCount: 1, violations: [] };
  const inOrder = cycleFolder(results, 2, 'no-torn', 0, 64);
  inOrder.record.writeOrder = { ...reordered.record.writeOrder, violationCount: 0 };
  for (const c of [reordered, inOrder]) keeper.settle(c.record, c.dir);
  t.equal(reordered.record.evidenceDir, 'cycles/dw-on-1');
  t.equal(inOrder.record.evidenceDir, null);
});

t.test('over the cap the oldest passing evidence goes first; failing evidence stays, with a warning', async (t) => {
  const results = tempDir(t);
  const warnings: string[] = [];
  const keeper = new EvidenceKeeper(results, policy(300 * KiB), (line) => warnings.push(line));
  const first = cycleFolder(results, 1, 'restored', 1, 128);
  const failing = cycleFolder(results, 2, 'lost-commit', 1, 128);
  const third = cycleFolder(results, 3, 'restored', 1, 128);
  for (const c of [first, failing, third]) keeper.settle(c.record, c.dir);
  t.equal(first.record.evidenceDir, null, 'the oldest passing evidence went');
  t.same(first.record.evidence, { kept: null, why: 'given up for the cap of 300k (kept because its crash image held 1 torn page(s))', bytes: 0 }, 'its record says why');
  t.notOk(existsSync(join(first.dir, 'cut', 'image.img')));
  t.equal(savedRecord(first.dir).evidenceDir, null, 'its cycle.json says so');
  t.equal(third.record.evidenceDir, 'cycles/dw-on-3', 'the newer passing evidence fits');
  t.same(warnings, []);
  const more = cycleFolder(results, 4, 'silent-corruption', 1, 256);
  keeper.settle(more.record, more.dir);
  t.equal(third.record.evidenceDir, null, 'passing evidence makes room for failing evidence');
  t.equal(failing.record.evidenceDir, 'cycles/dw-on-2');
  t.equal(more.record.evidenceDir, 'cycles/dw-on-4');
  t.ok(existsSync(join(failing.dir, 'cut', 'image.img')) && existsSync(join(more.dir, 'cut', 'image.img')), 'failing evidence is never dropped');
  t.equal(warnings.length, 1);
  t.match(warnings[0], /failing cycles alone keep .* over the cap of 300k/);
});

t.test('evidence a resumed run kept counts against the cap', async (t) => {
  const results = tempDir(t);
  const keeper = new EvidenceKeeper(results, policy(200 * KiB), () => undefined);
  const earlier = cycleFolder(results, 1, 'restored', 1, 128);
  earlier.record.evidenceDir = 'cycles/dw-on-1';
  keeper.adopt(earlier.record);
  const later = cycleFolder(results, 2, 'restored', 1, 128);
  keeper.settle(later.record, later.dir);
  t.equal(earlier.record.evidenceDir, null, 'the earlier run\'s evidence is the oldest, so it goes');
  t.equal(later.record.evidenceDir, 'cycles/dw-on-2');
});

/** An explore cycle's recording (of `KiB` real bytes) and its states' folders, as an explore cycle leaves them. */
function exploration(resultsDir: string, run: number, verdicts: Verdict[], recordingKiB: number) {
  const recordingDir = join(resultsDir, 'recordings', `dw-on-${run}`);
  mkdirSync(recordingDir, { recursive: true });
  writeFileSync(join(recordingDir, 'recording.pfr'), Buffer.alloc(recordingKiB * KiB, 3));
  const states = verdicts.map((verdict, i) => {
    const id = `dw-on-${run}-s${i + 1}`;
    const record = cycleRecord({ id, scenario: 'dw-on', cycle: i + 1, seed: 100 + i }, settings, verdict, verdict === 'no-torn' ? 0 : 1, {
      expectationHeld: verdict === 'restored' || verdict === 'no-torn',
    });
    const dir = join(resultsDir, 'cycles', id);
    record.explore = { recording: `../../recordings/dw-on-${run}`, barrier: 10 + i, barrierKind: 'flush', barriers: 50, tUs: 1, durableWrites: 5, pick: 'targeted', run: `dw-on-${run}`, runSeed: run, of: verdicts.length };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plan.json'), '{}');
    return { record, dir };
  });
  return { recordingDir, states };
}

t.test('an explore recording counts against the cap once, and goes with its states\' evidence', async (t) => {
  const results = tempDir(t);
  const warnings: string[] = [];
  const keeper = new EvidenceKeeper(results, policy(300 * KiB), (line) => warnings.push(line));
  const clean = exploration(results, 1, ['no-torn', 'no-torn'], 64);
  for (const s of clean.states) keeper.settle(s.record, s.dir);
  keeper.settleRecording(clean.recordingDir, clean.states);
  t.notOk(existsSync(clean.recordingDir), 'a recording no state keeps as evidence is removed');
  t.same(clean.states.map((s) => s.record.evidenceDir), [null, null]);

  const passing = exploration(results, 2, ['restored', 'restored'], 200);
  for (const s of passing.states) keeper.settle(s.record, s.dir);
  keeper.settleRecording(passing.recordingDir, passing.states);
  t.same(passing.states.map((s) => s.record.evidenceDir), ['cycles/dw-on-2-s1', 'cycles/dw-on-2-s2'], 'torn states keep their plan and the recording');
  t.ok(existsSync(passing.recordingDir));
  t.ok(keeper.totalBytes() >= 200 * KiB && keeper.totalBytes() < 250 * KiB, `the recording counted once (${keeper.totalBytes()} bytes)`);

  const failing = exploration(results, 3, ['restored', 'lost-commit'], 200);
  for (const s of failing.states) keeper.settle(s.record, s.dir);
  keeper.settleRecording(failing.recordingDir, failing.states);
  t.notOk(existsSync(passing.recordingDir), 'over the cap, the passing recording went');
  t.same(passing.states.map((s) => [s.record.evidenceDir, savedRecord(s.dir).evidenceDir]), [[null, null], [null, null]], 'and every state of it says so');
  t.ok(existsSync(failing.recordingDir), 'a recording with a failing state stays');
  t.same(failing.states.map((s) => s.record.evidenceDir), ['cycles/dw-on-3-s1', 'cycles/dw-on-3-s2']);
  t.same(warnings, []);

  const resumed = new EvidenceKeeper(results, policy(300 * KiB), () => undefined);
  for (const s of failing.states) resumed.adopt(s.record);
  t.ok(resumed.totalBytes() >= 200 * KiB && resumed.totalBytes() < 250 * KiB, `a resumed run counts the adopted recording once (${resumed.totalBytes()} bytes)`);
});
