/**
 * One AbortController per run: SIGINT, SIGTERM and SIGHUP abort it, the body's own finally blocks
 * take down what it built, and then the signal is raised again so the exit status tells the
 * caller how the run ended (node-tap's proxy-fatal-signals does the same).
 *
 * A reader that goes away (`rig campaign ... | head`) is an interruption too: node ignores SIGPIPE,
 * so the next write to standard output or error fails with EPIPE, which would otherwise end the
 * process on the spot with its disks still mounted. It aborts the run the same way, and once the
 * run is taken down the rig exits with status 141, as a process ended by SIGPIPE reports; outside a
 * run it exits so at once.
 */
import { takeCoverage } from 'node:v8';
import { rigFailure } from './errors.js';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The exit status of a process ended by SIGPIPE, as shells report it. */
export const BROKEN_PIPE_STATUS = 128 + 13;

/** What a broken pipe does while a run is in flight (set by runInterruptible). */
let onBrokenPipe: (() => void) | null = null;
let pipesWatched = false;

/**
 * Watches standard output and error for EPIPE (idempotent). Later writes to a broken stream fail
 * quietly; any other error on them is thrown as before.
 */
export function watchBrokenPipes(): void {
  if (pipesWatched) return;
  pipesWatched = true;
  let broken = false;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      if (broken) return;
      broken = true;
      if (onBrokenPipe) return onBrokenPipe();
      takeCoverage();
      process.exit(BROKEN_PIPE_STATUS);
    });
  }
}

export async function runInterruptible<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  watchBrokenPipes();
  const controller = new AbortController();
  let caught: NodeJS.Signals | 'EPIPE' | null = null;
  const interrupt = (cause: NodeJS.Signals | 'EPIPE', line: string): void => {
    if (caught) return;
    caught = cause;
    process.stderr.write(`rig: ${line}, cleaning up\n`);
    controller.abort(rigFailure(`interrupted by ${cause === 'EPIPE' ? 'a closed output' : cause}`));
  };
  const onSignal = (sig: NodeJS.Signals): void => interrupt(sig, `${sig} received`);
  for (const sig of SIGNALS) process.on(sig, onSignal);
  onBrokenPipe = () => interrupt('EPIPE', 'the reader of its output went away (EPIPE)');
  try {
    return await body(controller.signal);
  } finally {
    for (const sig of SIGNALS) process.off(sig, onSignal);
    onBrokenPipe = null;
    if (caught) {
      // node writes its coverage (NODE_V8_COVERAGE) when it exits, not when a signal ends it
      takeCoverage();
      if (caught === 'EPIPE') process.exit(BROKEN_PIPE_STATUS);
      // other listeners (execa's signal-exit) may still hold the signal and would swallow it
      process.removeAllListeners(caught);
      process.kill(process.pid, caught);
    }
  }
}

/** Throws the abort reason if the run was interrupted. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}
