/**
 * Which state judges each crash image, when states are judged out of order. States whose plans land
 * the same units at the same barrier have the same crash image (./state-image.ts stateKey), judged
 * once: by the first of them in state order whose judgement did not end in a rig error; the others
 * take its judgement. With states judged in lanes, a state waits for the earlier states of its
 * image to be done, so the outcome is the one judging in order gives. A state only ever waits for
 * earlier states, so no lane waits on itself.
 */
import type { CycleRecord } from '../results/types.js';

export interface SameImage {
  /** The record that judged this state's crash image before it, or null: this state judges it. */
  earlier: Promise<CycleRecord | null>;
  /** Once the state is done: the record that judged its image (its own, or the one it took), or null. */
  settle(judgedBy: CycleRecord | null): void;
}

export class JudgedImages {
  private readonly done: Array<Promise<CycleRecord | null>>;
  private readonly resolvers: Array<((r: CycleRecord | null) => void) | null> = [];
  private readonly previous: Array<number | null>;

  /** keys[i]: the stateKey of state i, in state order. */
  constructor(keys: readonly string[]) {
    this.done = keys.map(() => new Promise<CycleRecord | null>((resolve) => this.resolvers.push(resolve)));
    const last = new Map<string, number>();
    this.previous = keys.map((key, i) => {
      const before = last.get(key) ?? null;
      last.set(key, i);
      return before;
    });
  }

  for(i: number): SameImage {
    const before = this.previous[i]!;
    return { earlier: before === null ? Promise.resolve(null) : this.done[before]!, settle: (judgedBy) => this.settle(i, judgedBy) };
  }

  /** State i is done (once; later calls change nothing); null: it judged nothing later states can take. */
  settle(i: number, judgedBy: CycleRecord | null): void {
    this.resolvers[i]?.(judgedBy);
    this.resolvers[i] = null;
  }
}
