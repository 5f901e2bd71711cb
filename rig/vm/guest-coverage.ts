/**
 * Coverage of the node processes in the guest, when the rig runs under tap's process tracker
 * (@tapjs/processinfo: a `--import` in NODE_OPTIONS, settings in `_TAPJS_PROCESSINFO_*`, which it
 * puts back into every child's environment). Each tracked node process writes its V8 coverage,
 * with the source maps that lead from dist/ to the TypeScript, to `<_TAPJS_PROCESSINFO_CWD_>/.tap`
 * (coverage/ and processinfo/) as it exits, and tap's report reads every file there. So the guest's
 * command gets the same variables, and that folder is shared read-write at its own path (the
 * guest's view of the host's root is read-only). The guest sees the host's files at the same paths,
 * so what it writes names the same sources. Without the tracker, nothing is forwarded or shared.
 */
import { join } from 'node:path';

/** Set by tap in every process it tracks: the project root, where `.tap` is. */
export const TRACKER_ROOT_ENV = '_TAPJS_PROCESSINFO_CWD_';

export interface GuestCoverage {
  /** Set in the guest command's environment: NODE_OPTIONS and the tracker's own variables. */
  env: Record<string, string>;
  /** The folder the tracker writes to, shared read-write with the guest. */
  dir: string;
}

export function guestCoverage(env: NodeJS.ProcessEnv): GuestCoverage | undefined {
  const root = env[TRACKER_ROOT_ENV];
  if (!root) return undefined;
  const forwarded = Object.entries(env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && (entry[0] === 'NODE_OPTIONS' || entry[0].startsWith('_TAPJS_PROCESSINFO_')),
  );
  return { env: Object.fromEntries(forwarded), dir: join(root, '.tap') };
}
