/**
 * Wraps a command's action: prints a RigError as one line and exits with its code; anything else
 * is a rig failure (exit 3) with its stack, since it is our bug.
 */
import { RigError, exitCodeOf } from '../errors.js';

export function runAction<A extends unknown[]>(
  action: (...args: A) => Promise<number | void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      const code = await action(...args);
      process.exitCode = code ?? 0;
    } catch (error) {
      if (error instanceof RigError) {
        process.stderr.write(`rig: ${error.message}\n`);
        if (process.env.RIG_DEBUG && error.cause) console.error(error.cause);
      } else {
        process.stderr.write(`rig: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
      }
      process.exitCode = exitCodeOf(error);
    }
  };
}
