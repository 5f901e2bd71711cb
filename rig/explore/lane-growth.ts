/**
 * When explore opens another lane: while the cores have room for one. A lane keeps the cores busy
 * by its share of what they are busy with (busy ÷ lanes); another lane opens when the idle cores
 * could hold at least half of that, measured over a window of the states just judged. With two
 * lanes that is at most 80% busy: on the machines measured, a third lane paid 8-12% where two
 * left the cores 69-77% busy, and nothing where they left them 84-89% busy
 * (docs/measurements.md). What else runs on the machine counts too, so a busy machine keeps the
 * lanes it has. Lanes only open; a window that finds no room starts the next.
 */
import { availableParallelism } from 'node:os';
import { busyShareBetween, machineCpu, type MachineCpu } from './machine-cpu.js';

export interface LaneOpening {
  lanes: number; // lanes from now on
  afterStates: number; // states judged when it opened
  busyShare: number; // how busy the cores were with one lane fewer, from 0 to 1
}

export interface LaneGrowthOptions {
  lanes: number; // at the start
  most: number; // never more
  sample?: () => MachineCpu | null; // default: /proc/stat
  now?: () => number; // ms
  /** A window holds at least this many states per lane, and lasts at least minWindowMs. */
  statesPerLane?: number;
  minWindowMs?: number;
}

/** Whether busy cores leave room for another lane: idle cores for half of a lane's use or more. */
export function roomForAnotherLane(busyShare: number, lanes: number): boolean {
  // 1 - busy >= busy / lanes / 2, solved for busy
  return busyShare <= (2 * lanes) / (2 * lanes + 1);
}

export class LaneGrowth {
  private lanesNow: number;
  private judged = 0;
  private window: { cpu: MachineCpu; at: number; judged: number } | null = null;
  private readonly most: number;
  private readonly sample: () => MachineCpu | null;
  private readonly now: () => number;
  private readonly statesPerLane: number;
  private readonly minWindowMs: number;

  constructor(options: LaneGrowthOptions) {
    this.lanesNow = options.lanes;
    this.most = options.most;
    this.sample = options.sample ?? machineCpu;
    this.now = options.now ?? Date.now;
    this.statesPerLane = options.statesPerLane ?? 2;
    this.minWindowMs = options.minWindowMs ?? 2000;
  }

  get lanes(): number {
    return this.lanesNow;
  }

  /**
   * A state was judged, with `untaken` states no lane has begun: another lane to open now, or
   * null. The first window starts at the first state judged, after the lanes' start.
   */
  stateJudged(untaken: number): LaneOpening | null {
    this.judged++;
    if (this.lanesNow >= this.most) return null;
    const w = this.window;
    // the machine is read only where a window starts or ends, not after every state
    if (w && (this.judged - w.judged < this.statesPerLane * this.lanesNow || this.now() - w.at < this.minWindowMs)) return null;
    const cpu = this.sample();
    if (!cpu) return null;
    this.window = { cpu, at: this.now(), judged: this.judged };
    if (!w) return null;
    const busy = busyShareBetween(w.cpu, cpu);
    if (busy === null || !roomForAnotherLane(busy, this.lanesNow) || untaken < this.lanesNow) return null;
    this.lanesNow++;
    return { lanes: this.lanesNow, afterStates: this.judged, busyShare: busy };
  }
}

/** The most states an exploration judges at once: each holds a server, a disk and two images. */
export const MAX_LANES = 32;

/** The most lanes an exploration grows to by itself: one more than the cores. */
export function mostLanes(cores = availableParallelism()): number {
  return Math.min(MAX_LANES, cores + 1);
}
