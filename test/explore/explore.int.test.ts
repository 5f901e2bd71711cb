/**
 * Explore with the real mariadbd on the real power-fail disk: the three headline scenarios, each
 * recorded once and judged at targeted crash states (live cycles of the same settings are
 * test/cycle/crash-cycle.int.test.ts's).
 * Every state is judged as a cycle is (truth reconciled with the scan, the ledger held to the
 * barrier's moment, the verdict following the evidence as a live cycle's does), a targeted pick
 * takes only barriers that can exercise the claim (what each state then exercised is printed: its
 * plan is drawn from a seed), and states rebuilt from the recording alone have the sha256 the
 * exploration recorded, which also shows each state was built on a clean image. States are judged
 * in lanes with the scan memo on clones of a clean image, as explore runs. One scenario opens a
 * lane mid-run, as explore does while the cores have room, and its states are judged again one at
 * a time, each scan from nothing, on power-fail disks over a working image put back after each
 * state, and must come out the same.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { rebuildStateImage } from '../../rig/explore/rebuild-state.js';
import { defaultLanes, judgeRecorded, type ExploreInput } from '../../rig/explore/run-explore.js';
import { LaneGrowth } from '../../rig/explore/lane-growth.js';
import { recordLoad } from '../../rig/explore/record-load.js';
import { recoveredByEvidence } from '../fixtures/judged-cycle.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { exercisedDoublewrite } from '../../rig/results/exercised.js';
import type { CycleRecord, ScenarioSettings } from '../../rig/results/types.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import { localScenario } from '../fixtures/local-scenario.js';
import { DIGEST_BLOCK } from '../../rig/results/crash-image-digest.js';

type Tap = import('tap').Test;

const work = mkdtempSync(join(tmpdir(), 'rig-explore-test-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const runtime = createLocalRuntime();
const STATES = 5;

const small = { load: { connections: 4, tables: 4, rows: 5000 }, server: { bufferPool: '64M', redoSize: '96M' } } as const;
const SCENARIOS: ScenarioSettings[] = [
  localScenario('dw-on-atomic4k', { ...small, server: { ...small.server, doublewrite: true }, disk: { atomicUnit: 4096, fs: 'ext4', sizeBytes: 512 << 20 } }),
  localScenario('dw-off-atomic16k-bigalloc', { ...small, server: { ...small.server, doublewrite: false }, disk: { atomicUnit: 16384, fs: 'ext4-bigalloc16k', sizeBytes: 512 << 20 } }),
  localScenario('dw-off-atomic4k', { ...small, server: { ...small.server, doublewrite: false }, disk: { atomicUnit: 4096, fs: 'ext4', sizeBytes: 512 << 20 } }),
];

/** The verdict as the evidence says, whatever the cut or the plan hit. */
function judgedByEvidence(t: Tap, r: CycleRecord): void {
  t.not(r.verdict, 'rig-error', `${r.id}: judged (${r.reason.slice(0, 200)})`);
  if (r.expectation === 'recovers') {
    t.equal(['restored', 'no-torn'].includes(r.verdict), recoveredByEvidence(r), `${r.id}: ${r.verdict} follows the evidence of the recovery`);
  } else if (r.expectation === 'torn-reproduced') {
    t.ok(r.tornPagesBefore.length === 0 || r.expectationHeld, `${r.id}: a torn page holds the control, whatever the server did`);
  } else t.equal(r.verdict === 'no-torn', r.tornPagesBefore.length === 0 && recoveredByEvidence(r), `${r.id}: ${r.verdict} follows the evidence`);
}

function claimExercised(r: CycleRecord): boolean {
  if (r.expectation === 'never-torn') return (r.exercised?.pageWritesInFlight ?? 0) > 0;
  if (r.expectation === 'recovers') return exercisedDoublewrite(r.exercised);
  return r.tornPagesBefore.length > 0;
}

async function scenarioRun(t: Tap, live: ScenarioSettings): Promise<void> {
  const { server, version } = await runtime.describe();
  const serverVersion = `${server} ${version}`;
  const cacheRoot = PREPARED_CACHE;
  const settings: ScenarioSettings = { ...live, disk: { ...live.disk, trigger: { kind: 'at-time', ms: 4000 } }, explore: { states: STATES, pick: 'targeted' } };
  const recordingDir = join(work, live.name, 'recording');
  const input: ExploreInput = {
    runId: `${live.name}-1`, settings, seed: 5, expectation: live.expect, states: STATES, pick: 'targeted',
    recordingDir, stateDir: (id) => join(work, live.name, id.split('-').pop()!), reproPrefix: 'DIR',
    cacheRoot, runtime, serverVersion,
  };
  const started = Date.now();
  const recorded = await recordLoad({ settings, seed: 5, dir: recordingDir, cacheRoot, runtime, serverVersion });
  // one scenario opens a lane after its second state, as on idle cores (the readings given)
  const grow = live.name === SAME_STATES_SCENARIO;
  const idle = { busy: 0, total: 0 };
  const laneGrowth = ({ lanes, most }: { lanes: number; most: number }) => new LaneGrowth({ lanes, most, sample: () => ((idle.total += 1), { ...idle }), statesPerLane: 0, minWindowMs: 0 });
  const explored = await judgeRecorded({ ...input, ...(grow ? { laneGrowth } : {}) }, recorded, Date.now() - started);
  // five states leave the machine's own windows too few for a lane to open
  t.equal(explored.lanes, defaultLanes() + (grow ? 1 : 0), `${explored.lanes} states judged at once at the most`);
  t.same(explored.lanesOpened.map((o) => o.afterStates), grow ? [2] : [], 'lanes opened as the growth said');
  t.ok(explored.clones, "each state's image a clone in a clone store, judged on a loop disk");
  const { records, recording } = explored;
  t.comment(`${live.name}: recorded ${recording.writes} writes and ${recording.flushes} flushes in ${explored.recordMs} ms; ${recording.barriers} barriers with writes pending, ${recording.candidates} targeted candidates; ${records.length} states in ${explored.statesMs} ms`);
  t.equal(recording.ended, 'cut', 'the recording ends at the cut, whole');
  t.ok(recording.candidates > 0, `the recording has ${recording.candidates} barriers that serve the claim (${recording.claim})`);
  t.equal(records.length, STATES, `${STATES} states judged`);
  for (const r of records) {
    t.comment(`${r.id}: barrier ${r.explore?.barrier} (score ${r.explore?.score}), ${r.cut?.pending} pending: ${r.verdict}, ${r.tornPagesBefore.length} torn; ${r.reason.slice(0, 200)}`);
    t.ok(r.reconciliation?.ok, `${r.id}: the scan agrees with the truth the recording gives`);
    t.equal(r.pagesTouched?.torn, r.tornPagesBefore.length, `${r.id}: every torn page the truth names is described`);
    judgedByEvidence(t, r);
    t.ok((r.explore?.score ?? 0) > 0, `${r.id}: a targeted pick took a barrier that can exercise the claim (score ${r.explore?.score})`);
    if (r.verdict === 'restored' || r.verdict === 'no-torn') {
      t.ok(r.ledger.checked, `${r.id}: the ledger was read`);
      t.equal(r.ledger.missing, 0, `${r.id}: no commit acknowledged before the barrier is missing`);
      t.same(r.invariants.violations, [], `${r.id}: the data invariants hold, the ledger bounded by the commits begun by then`);
    }
    t.ok(r.explore && r.explore.run === `${live.name}-1` && r.explore.of === STATES && r.explore.pick === 'targeted', `${r.id}: says where it came from`);
  }
  t.comment(`${live.name}: ${records.filter(claimExercised).length} of ${records.length} targeted states exercised the claim (a rate: \`make hunt\` and campaigns measure it)`);
  if (live.expect === 'never-torn') t.same(new Set(records.map((r) => r.verdict)), new Set(['no-torn']), 'never torn: every state');
  // first, middle and last: rebuilt from the snapshot and the recording alone
  for (const r of [records[0]!, records[Math.floor(records.length / 2)]!, records.at(-1)!]) {
    const dir = join(work, live.name, r.id.split('-').pop()!);
    const digest = await rebuildStateImage(resolve(dir, r.explore!.recording), r.explore!.barrier, join(dir, 'plan.json'), join(work, `${live.name}-rebuilt.img`));
    t.match(r.crashImageBlocksSha256, /^[0-9a-f]{64}$/, `${r.id}: its crash image's blocks digest is recorded`);
    t.equal(r.crashImageDigestBlock, DIGEST_BLOCK, `${r.id}: with its block size`);
    t.equal(digest, r.crashImageBlocksSha256, `${r.id}: rebuilt from the recording with the digest it was judged with`);
    rmSync(join(work, `${live.name}-rebuilt.img`), { force: true });
  }
  if (live.name === SAME_STATES_SCENARIO) {
    // the same states judged one at a time, each scan from nothing, each image built in a working
    // image put back afterwards and judged on a power-fail disk: the same judgement, state by state
    const alone = await judgeRecorded({ ...input, stateDir: (id) => join(work, live.name, 'alone', id.split('-').pop()!), lanes: 1, scanMemo: false, clones: false }, recorded, 0);
    t.notOk(alone.clones, 'judged without clones');
    t.same(alone.records.map(judgement), records.map(judgement), `judged one at a time on power-fail disks, without the scan memo: the same verdicts, torn pages and sha256 (${explored.statesMs} ms in ${explored.lanes} lanes with clones, ${alone.statesMs} ms alone)`);
  }
  rmSync(join(work, live.name), { recursive: true, force: true });
}

const SAME_STATES_SCENARIO = 'dw-on-atomic4k';
const judgement = (r: CycleRecord) => ({ id: r.id, verdict: r.verdict, torn: r.tornPagesBefore.map((p) => `${p.file}:${p.page}`), digest: r.crashImageBlocksSha256, duplicateOf: r.explore?.duplicateOf ?? null });

for (const s of SCENARIOS) t.test(`explore ${s.name}`, (t) => scenarioRun(t, s));
