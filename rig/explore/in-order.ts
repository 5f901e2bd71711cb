/**
 * Results that finish out of order, handed on in order: states judged in lanes finish in any order,
 * and what follows each one (saving it, the progress line, the campaign's tally) sees them one by
 * one in state order, as when they are judged one at a time.
 */
export class InOrder<T> {
  private readonly waiting = new Map<number, T>();
  private readonly done: T[] = [];
  private handing: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;

  constructor(private readonly next: (item: T, index: number) => Promise<void> | void) {}

  /** Takes result `index`; it is handed on once every earlier one has been. */
  put(index: number, item: T): void {
    this.waiting.set(index, item);
    this.handing = this.handing.then(async () => {
      while (!this.failure && this.waiting.has(this.done.length)) {
        const at = this.done.length;
        const ready = this.waiting.get(at)!;
        this.waiting.delete(at);
        this.done.push(ready);
        try {
          await this.next(ready, at);
        } catch (error) {
          this.failure = { error };
        }
      }
    });
  }

  /** Handing one on failed: the work that produces more can stop. */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** Every result handed on, in order, once the last has been; throws what handing one on threw. */
  async finish(): Promise<T[]> {
    await this.handing;
    if (this.failure) throw this.failure.error;
    return [...this.done];
  }
}
