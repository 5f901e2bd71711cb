/**
 * Coverage of the node processes in the guest, when the rig runs under tap's process tracker
 * (@tapjs/processinfo: a `--import` in NODE_OPTIONS, settings in `_TAPJS_PROCESSINFO_*`). tap's
 * report reads every V8 coverage file in `<_TAPJS_PROCESSINFO_CWD_>/.tap/coverage`.
 *
 * The tracker itself is not forwarded: under emulation it costs each node process about 8 s (its
 * loader thread, a message per module, its JSON at exit), three times what the rig's own start
 * costs there. The guest's node writes its coverage itself instead (NODE_V8_COVERAGE, inherited by
 * every child; with it node keeps each module's source map in the file) into a folder of the
 * guest's run folder, shared read-write at its own path (the guest's view of the host's root is
 * read-only); when the guest has ended, coverage-files.ts keeps what the tracker would have kept
 * of each file and writes it where the report reads. The guest sees the host's files at the same
 * paths, so what it writes names the same sources. Without the tracker, or with coverage off,
 * nothing is collected or shared.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { convertCoverage, coverageFilter, type CoverageFilter } from './coverage-files.js';

/** Set by tap in every process it tracks: the project root, where `.tap` is. */
export const TRACKER_ROOT_ENV = '_TAPJS_PROCESSINFO_CWD_';

export interface GuestCoverage {
  /** Set in the guest command's environment. */
  env: Record<string, string>;
  /** Where the guest's node processes write their coverage: shared read-write, removed after. */
  dir: string;
  /** Where tap's report reads coverage from. */
  reportDir: string;
  /** Which files of a process's coverage the tracker would have kept. */
  filter: CoverageFilter;
}

/**
 * `dir`, where given, is the coverage folder (a guest's is in its run folder, which `rig cleanup`
 * removes when the rig that made it was killed); else a fresh one under `.tap`.
 */
export function guestCoverage(env: NodeJS.ProcessEnv, dir?: string): GuestCoverage | undefined {
  const root = env[TRACKER_ROOT_ENV];
  if (!root || env._TAPJS_PROCESSINFO_COVERAGE_ === '0') return undefined;
  const folder = dir ?? join(root, '.tap', `guest-coverage-${randomUUID()}`);
  return { env: { NODE_V8_COVERAGE: folder }, dir: folder, reportDir: join(root, '.tap', 'coverage'), filter: coverageFilter(env) };
}

/** Once the processes have ended: what they wrote, kept as the tracker would have, where tap's
 * report reads; their own folder removed. */
export async function collectCoverage(coverage: GuestCoverage): Promise<void> {
  await convertCoverage(coverage.dir, coverage.reportDir, coverage.filter);
  await rm(coverage.dir, { recursive: true, force: true });
}
