/**
 * Wraps a command's action: prints a RigError or DiskError and exits with its code, bad input as
 * one line; anything else is a rig failure (exit 3) with its stack, since it is our bug. A disk
 * setting the command takes as a flag is named by that flag.
 */
import { DiskError, type DiskSetting } from '../../faults/disk-error.js';
import { RigError, exitCodeOf } from '../errors.js';

export type SettingFlags = Partial<Record<DiskSetting, string>>;

function oneLine(error: RigError | DiskError, flags: SettingFlags): string {
  const flag = error instanceof DiskError && error.setting ? flags[error.setting] : undefined;
  const text = flag ? `${flag}: ${(error as DiskError).detail}` : error.message;
  // bad input is one line, even where it quotes a file's text (a JSON parser's excerpt, a value)
  return error.code === 'bad-input' ? text.replace(/\s*\n\s*/g, ' ') : text;
}

export function runAction<A extends unknown[]>(
  action: (...args: A) => Promise<number | void>,
  flags: SettingFlags = {},
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      const code = await action(...args);
      process.exitCode = code ?? 0;
    } catch (error) {
      if (error instanceof RigError || error instanceof DiskError) {
        process.stderr.write(`rig: ${oneLine(error, flags)}\n`);
        if (process.env.RIG_DEBUG && error.cause) console.error(error.cause);
      } else {
        process.stderr.write(`rig: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
      }
      process.exitCode = exitCodeOf(error);
    }
  };
}
