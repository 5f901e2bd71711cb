/**
 * One holder at a time, in the order asked. Explore's lanes take turns at the parts of a state
 * that run on the rig's own thread (building the image and the scans), so that one lane scans
 * while another lane's server recovers, instead of every lane scanning at once on the one thread
 * and then every server recovering at once (./run-explore.ts).
 */
export class Turns {
  private last: Promise<void> = Promise.resolve();

  /** Waits for the turn; the function returned ends it (a second call does nothing). */
  async take(): Promise<() => void> {
    let end!: () => void;
    const mine = new Promise<void>((resolve) => (end = resolve));
    const before = this.last;
    this.last = mine;
    await before;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      end();
    };
  }
}
