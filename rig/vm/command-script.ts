/**
 * The script the guest runs for one `rig vm run` (written to the run folder): go to the shared
 * folder, set a small environment (plus, under tap, its process tracker's variables, so the
 * guest's node processes report their coverage: guest-coverage.ts), and exec the command. An exit
 * status of its own only where the shell gives none: 126/127 when the command cannot run, as in
 * any shell.
 */
import { shellQuote } from './shell-quote.js';

export interface GuestCommand {
  argv: string[];
  cwd: string;
  /** The host's PATH: the guest sees the host's root, so the same programs are found. */
  path: string;
  /** The prepared-image cache shared with the guest: RIG_CACHE there, whatever the host set. */
  cacheDir: string;
  /** More of the host's environment to set (guest-coverage.ts); the rig's own variables win. */
  forwardEnv?: Record<string, string>;
}

/** Set in the guest's environment: the rig there runs inside a `rig vm run`. */
export const IN_GUEST_ENV = 'RIG_IN_GUEST';

/**
 * OpenSSL's vector code (AVX, AVX2, SSSE3) runs slowly under TCG, which emulates each such
 * instruction: with them masked out, node's sha256 of 128 MiB takes 3.1 s in the guest instead of
 * 11.9 s (a crash image is hashed at every cycle). Results are the same; only the code path differs.
 * Word 0 is CPUID.1 EDX|ECX<<32 (ECX bit 9 SSSE3, bit 28 AVX), word 1 CPUID.7 EBX (bit 5 AVX2,
 * bit 29 SHA, absent under TCG anyway).
 */
export const OPENSSL_CAP_ENV = 'OPENSSL_ia32cap';
export const SCALAR_OPENSSL = '~0x1000020000000000:~0x20000020';

/** Exit status of the script when the folder to run in is missing in the guest. */
export const NO_CWD_EXIT = 126;

export function commandScript(command: GuestCommand): string {
  if (command.argv.length === 0) throw new Error('commandScript: no command');
  const env = {
    ...command.forwardEnv,
    PATH: command.path,
    HOME: '/root',
    LANG: 'C.UTF-8',
    // no udev in the guest: dmsetup must not wait for it
    DM_DISABLE_UDEV: '1',
    // a rig run here leaves the host's guest runs to the host (rig/cleanup/sweep-guests.ts)
    [IN_GUEST_ENV]: '1',
    RIG_CACHE: command.cacheDir,
    [OPENSSL_CAP_ENV]: SCALAR_OPENSSL,
  };
  return [
    `cd ${shellQuote(command.cwd)} || exit ${NO_CWD_EXIT}`,
    ...Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}`),
    `exec ${command.argv.map(shellQuote).join(' ')}`,
    '',
  ].join('\n');
}
