/**
 * States judged in lanes. Each lane takes the next state no lane has begun, so a lane's states
 * come in state order and its clean image only moves forward; a lane that starts late (opened
 * by ./lane-growth.ts while the cores have room) begins at the next state. A failure anywhere
 * stops every lane from taking another state; each lane ends what it has begun and closes, and
 * then the first failure is thrown, so nothing of a lane (its disk, its server, its images)
 * outlives the exploration.
 */
import type { LaneGrowth, LaneOpening } from './lane-growth.js';

export interface LaneWork<L> {
  states: number; // judged in order of taking: 0, 1, 2, ...
  lanes: number; // at the start
  growth?: LaneGrowth | null; // asked after each state whether to open another lane
  open(lane: number): Promise<L>;
  judge(state: number, lane: L): Promise<void>;
  close(lane: L): Promise<void>;
  /** A state begun whose judging threw: whatever waits on it must not wait forever. */
  dropped(state: number): void;
  /** Stop taking states (what follows the states failed). */
  stopped?(): boolean;
  onOpened?(opening: LaneOpening): void;
}

export interface LanesRun {
  most: number; // lanes at the end: the most judging at once
  opened: LaneOpening[]; // lanes opened after the start, in order
}

export async function judgeInLanes<L>(work: LaneWork<L>): Promise<LanesRun> {
  let next = 0;
  const failures: unknown[] = []; // the first is thrown
  const opened: LaneOpening[] = [];
  const running: Array<Promise<void>> = [];
  const take = (): number | null => (failures.length || work.stopped?.() || next >= work.states ? null : next++);
  const run = async (n: number): Promise<void> => {
    let lane: { value: L } | null = null;
    try {
      lane = { value: await work.open(n) };
      for (let i = take(); i !== null; i = take()) {
        try {
          await work.judge(i, lane.value);
        } catch (error) {
          work.dropped(i);
          throw error;
        }
        const opening = work.growth?.stateJudged(work.states - next) ?? null;
        if (opening) {
          opened.push(opening);
          work.onOpened?.(opening);
          start();
        }
      }
    } catch (error) {
      failures.push(error);
    } finally {
      if (lane) await work.close(lane.value).catch((error: unknown) => void failures.push(error));
    }
  };
  const start = (): void => void running.push(run(running.length));
  for (let n = 0; n < Math.max(1, work.lanes); n++) start();
  for (let done = 0; done < running.length; done++) await running[done]; // lanes opened later join the list
  if (failures.length) throw failures[0];
  return { most: running.length, opened };
}
