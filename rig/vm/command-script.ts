/**
 * The script the guest runs for one `rig vm run` (written to the run folder): go to the shared
 * folder, set a small environment, and exec the command. An exit status of its own only where the
 * shell gives none: 126/127 when the command cannot run, as in any shell.
 */
import { shellQuote } from './shell-quote.js';

export interface GuestCommand {
  argv: string[];
  cwd: string;
  /** The host's PATH: the guest sees the host's root, so the same programs are found. */
  path: string;
}

/** Set in the guest's environment: the rig there runs inside a `rig vm run`. */
export const IN_GUEST_ENV = 'RIG_IN_GUEST';

/** Exit status of the script when the folder to run in is missing in the guest. */
export const NO_CWD_EXIT = 126;

export function commandScript(command: GuestCommand): string {
  if (command.argv.length === 0) throw new Error('commandScript: no command');
  const env = {
    PATH: command.path,
    HOME: '/root',
    LANG: 'C.UTF-8',
    // no udev in the guest: dmsetup must not wait for it
    DM_DISABLE_UDEV: '1',
    // a rig run here leaves the host's guest runs to the host (rig/cleanup/sweep-guests.ts)
    [IN_GUEST_ENV]: '1',
  };
  return [
    `cd ${shellQuote(command.cwd)} || exit ${NO_CWD_EXIT}`,
    ...Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}`),
    `exec ${command.argv.map(shellQuote).join(' ')}`,
    '',
  ].join('\n');
}
