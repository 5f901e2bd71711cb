/**
 * The recording made ahead of its cycle's turn (rig/campaign/recording-ahead.ts): which cycle is
 * recorded ahead, and that stopping one stops it, waits for its teardown and leaves nothing of it.
 * The recording itself is a stand-in here; test/campaign/recording-ahead.int.test.ts makes real
 * ones beside real states.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cycleToRecordAhead, RecordingAhead, type Recorded } from '../../rig/campaign/recording-ahead.js';
import type { PlannedCycle } from '../../rig/campaign/types.js';

const cycle = (scenario: string, n: number): PlannedCycle => ({ id: `${scenario}-${n}`, scenario, cycle: n, seed: n, position: 0 });

t.test('the cycle recorded ahead is the next one not finished, when it explores', async (t) => {
  const cycles = [cycle('x', 1), cycle('x', 2), cycle('live', 1), cycle('x', 3), cycle('y', 1)];
  const explores = (c: PlannedCycle) => c.scenario !== 'live';
  const none = () => false;
  t.equal(cycleToRecordAhead(cycles, cycles[0]!, none, explores), cycles[1], 'the next explore cycle');
  t.equal(cycleToRecordAhead(cycles, cycles[1]!, none, explores), null, 'none when a live cycle comes next');
  t.equal(cycleToRecordAhead(cycles, cycles[3]!, none, explores), cycles[4], 'across scenarios');
  t.equal(cycleToRecordAhead(cycles, cycles[4]!, none, explores), null, 'none at the end of the run');
  const done = new Set(['x-2', 'live-1']);
  t.equal(cycleToRecordAhead(cycles, cycles[0]!, (c) => done.has(c.id), explores), cycles[3], 'finished cycles (--resume) are passed over');
  t.equal(cycleToRecordAhead(cycles, cycles[0]!, (c) => c.id !== 'y-1', explores), cycles[4], 'up to the last one left');
});

/** A stand-in recording into `dir` that ends when told, or when its signal aborts. */
function standIn(dir: string) {
  let finish!: () => void;
  let seen: AbortSignal | undefined;
  let tornDown = false;
  const record = (signal: AbortSignal): Promise<Recorded> => {
    seen = signal;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'recording.bin'), 'x');
    return new Promise((resolve, reject) => {
      finish = () => resolve({ recorded: {} as Recorded['recorded'], ms: 1 });
      signal.addEventListener('abort', () => setTimeout(() => ((tornDown = true), reject(signal.reason)), 20));
    });
  };
  return { record, finish: () => finish(), signal: () => seen!, tornDown: () => tornDown };
}

/** A recording made ahead into a folder of its own, by a stand-in, under a campaign's signal. */
function aheadIn(dir: string, name: string, campaign: AbortController) {
  const stand = standIn(join(dir, name));
  return { stand, ahead: new RecordingAhead(cycle('x', 2), join(dir, name), stand.record, campaign.signal) };
}

t.test('stopping a recording made ahead stops it and removes what it made', async (t) => {
  const dir = t.testdir({});
  const campaign = new AbortController();
  const { stand: running, ahead } = aheadIn(dir, 'running', campaign);
  t.ok(existsSync(join(dir, 'running', 'recording.bin')), 'it started at once');
  t.notOk(running.signal().aborted, 'it runs');
  await ahead.stop();
  t.ok(running.signal().aborted, 'its signal aborted');
  t.ok(running.tornDown(), 'stop() waited for its teardown');
  t.notOk(existsSync(join(dir, 'running')), 'its folder is gone');

  const { stand: finished, ahead: done } = aheadIn(dir, 'finished', campaign);
  finished.finish();
  t.same((await done.recorded).ms, 1, 'a finished recording is handed on');
  await done.stop();
  t.notOk(existsSync(join(dir, 'finished')), 'stopped after it finished (its cycle never reached): its folder is gone');
});

t.test('the campaign\'s signal stops a recording made ahead', async (t) => {
  const campaign = new AbortController();
  const { stand: running, ahead } = aheadIn(t.testdir({}), 'r', campaign);
  campaign.abort(new Error('interrupted'));
  t.ok(running.signal().aborted, 'the recording\'s signal follows the campaign\'s');
  await t.rejects(ahead.recorded, /interrupted/, 'its cycle\'s turn sees the interruption');
});
