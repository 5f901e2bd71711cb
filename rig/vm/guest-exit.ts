/**
 * How a guest run ends, as the exit code of `rig vm run`: the command's own exit status when the
 * guest reported one; 124 when the guest ran past its timeout and was killed (as timeout(1)); a
 * rig failure (3) when the guest stopped without reporting a status (it did not boot, or the
 * command script never ran).
 */
export const TIMEOUT_EXIT_CODE = 124;

export type GuestEnd =
  | { kind: 'exited'; code: number }
  | { kind: 'timed-out' }
  | { kind: 'no-status'; problem: string };

/** What the guest's status file held, the run's timing, and qemu's own exit, as one ending. */
export function guestEnd(status: string | null, timedOut: boolean, qemuExit: string): GuestEnd {
  // a status written just before the timer fired still counts: the command did finish
  if (status === null && timedOut) return { kind: 'timed-out' };
  if (status === null) return { kind: 'no-status', problem: `the guest stopped without reporting the command's exit status (qemu ${qemuExit})` };
  const code = Number(status.trim());
  if (!/^\d+$/.test(status.trim()) || code > 255) {
    return { kind: 'no-status', problem: `the guest reported an exit status that is not one: ${JSON.stringify(status)}` };
  }
  return { kind: 'exited', code };
}
