/**
 * One AbortController per run: SIGINT, SIGTERM and SIGHUP abort it, the body's own finally blocks
 * take down what it built, and then the signal is raised again so the exit status tells the
 * caller how the run ended (node-tap's proxy-fatal-signals does the same).
 */
import { takeCoverage } from 'node:v8';
import { rigFailure } from './errors.js';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export async function runInterruptible<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let caught: NodeJS.Signals | null = null;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (caught) return;
    caught = sig;
    process.stderr.write(`rig: ${sig} received, cleaning up\n`);
    controller.abort(rigFailure(`interrupted by ${sig}`));
  };
  for (const sig of SIGNALS) process.on(sig, onSignal);
  try {
    return await body(controller.signal);
  } finally {
    for (const sig of SIGNALS) process.off(sig, onSignal);
    if (caught) {
      // other listeners (execa's signal-exit) may still hold the signal and would swallow it
      process.removeAllListeners(caught);
      // node writes its coverage (NODE_V8_COVERAGE) when it exits, not when a signal ends it
      takeCoverage();
      process.kill(process.pid, caught);
    }
  }
}

/** Throws the abort reason if the run was interrupted. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}
