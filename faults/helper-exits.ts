/**
 * The exits of the disk helpers this process started, as the command runner reports them: a
 * teardown in the same process waits on the exit itself instead of polling for the pid to go.
 * A helper started by another process (a disk handed over, `rig cleanup`) is not here.
 */
const exits = new Map<number, Promise<void>>();

/** Notes the helper `pid` and the promise that settles when it exits. */
export function noteHelper(pid: number, exited: Promise<unknown>): void {
  const settled = exited.then(
    () => undefined,
    () => undefined,
  );
  exits.set(pid, settled);
  void settled.then(() => {
    if (exits.get(pid) === settled) exits.delete(pid);
  });
}

/** Settles when the helper `pid` this process started exits; undefined when it did not start it or it is gone. */
export function helperExit(pid: number): Promise<void> | undefined {
  return exits.get(pid);
}
