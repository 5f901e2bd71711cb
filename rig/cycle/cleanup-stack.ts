import type { TeardownReport } from '../../faults/teardown.js';

/**
 * What a cycle has built, to be taken down in reverse on every exit path. A cleanup that fails is
 * reported, never allowed to stop the others.
 */
export class CleanupStack {
  private readonly steps: { what: string; run: () => Promise<unknown> }[] = [];

  push(what: string, run: () => Promise<unknown>): void {
    this.steps.push({ what, run });
  }

  /** A power-fail disk: a teardown that left a mount, a loop device or a helper behind is a failure. */
  pushDisk(what: string, disk: { down(): Promise<TeardownReport> }): void {
    this.push(what, async () => {
      const report = await disk.down();
      if (report.problems.length) throw new Error(report.problems.join('; '));
    });
  }

  /** Runs and forgets the newest step named `what` (when a stage ends normally). */
  async runNamed(what: string): Promise<void> {
    const at = this.steps.map((s) => s.what).lastIndexOf(what);
    if (at < 0) return;
    const [step] = this.steps.splice(at, 1);
    await step!.run();
  }

  async releaseAll(): Promise<string[]> {
    const problems: string[] = [];
    while (this.steps.length) {
      const step = this.steps.pop()!;
      try {
        await step.run();
      } catch (error) {
        problems.push(`${step.what}: ${(error as Error).message}`);
      }
    }
    return problems;
  }
}
