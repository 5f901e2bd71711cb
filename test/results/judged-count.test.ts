import t from 'tap';
import { judgedText, judgedUnit } from '../../rig/results/judged-count.js';
import type { ExploreState } from '../../rig/results/types.js';

const live = { explore: undefined };
const state = (run: string): { explore: ExploreState } => ({
  explore: { recording: '../../recordings/x', barrier: 1, barrierKind: 'flush', barriers: 9, tUs: 1, durableWrites: 1, pick: 'targeted', run, runSeed: 1, of: 50 },
});

t.test('live cycles are counted as cycles', async (t) => {
  t.equal(judgedText([live, live, live]), '3 cycles');
  t.equal(judgedText([live]), '1 cycle');
  t.equal(judgedText([]), '0 cycles', 'a run that judged nothing still says what it counts');
  t.equal(judgedUnit([live]), 'cycles');
});

t.test('explore states are counted as states of their recordings', async (t) => {
  const records = [state('explore-1'), state('explore-1'), state('explore-2')];
  t.equal(judgedText(records), '3 states of 2 recordings');
  t.equal(judgedText([state('a-1')]), '1 state of 1 recording');
  t.equal(judgedUnit(records), 'states');
});

t.test('a campaign with both modes names both', async (t) => {
  t.equal(judgedText([live, state('dw-1'), state('dw-1'), live]), '2 cycles, 2 states of 1 recording');
  t.equal(judgedUnit([live, state('dw-1')]), 'cycles and states');
});

t.test("a report's briefs count the same way", async (t) => {
  t.equal(judgedUnit([{ explore: true }, { explore: true }]), 'states');
  t.equal(judgedUnit([{ explore: false }, { explore: true }]), 'cycles and states');
  t.equal(judgedUnit([{ explore: false }]), 'cycles');
});
