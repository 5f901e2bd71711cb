/** Times each stage of a cycle into the record's `timings` (milliseconds, summed per phase). */
import type { Phase } from '../results/types.js';

export class PhaseTimer {
  constructor(
    private readonly timings: Partial<Record<Phase, number>>,
    private readonly onPhase: (phase: Phase) => void = () => {},
  ) {}

  async time<T>(phase: Phase, work: () => Promise<T> | T): Promise<T> {
    this.onPhase(phase);
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.timings[phase] = Math.round((this.timings[phase] ?? 0) + performance.now() - start);
    }
  }
}
