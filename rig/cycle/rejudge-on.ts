/**
 * A cycle's crash image judged again on another server build (`rig repro --recover` with
 * `--runtime docker --image NAME` or `--server-binary PATH`): the cycle's own plan on its cut
 * (an explore state's written out as one first), the same oracle, the record naming the server,
 * and whether the failure the rig saw is still there. A server that cannot read the image at all
 * (a downgrade; an upgrade after a crash, which MariaDB refuses) is said so, not judged.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CrashPlan } from '../../faults/crash-plan.js';
import type { CycleRecord, ScenarioSettings } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import { failureOf, sameFailure, describeFailure } from '../findings/failure-signature.js';
import { judgeCut } from './judge-cut.js';

/** What the servers say when the redo log or the datadir is not theirs to recover. */
const NOT_THEIRS = [
  /Upgrade after a crash is not supported[^\n]*/,
  /The redo log was created with [^\n]*/,
  /(?:Unsupported|unknown|Unrecognized) redo log format[^\n]*/i,
  /is not supported for the redo log format[^\n]*/,
  /Cannot (?:upgrade|downgrade) [^\n]*/i,
];

export interface Rejudged {
  record: CycleRecord;
  dir: string;
  /** The server cannot recover this image at all: its own words. */
  notTheirs: string | null;
  verdictLine: string; // "the failure is still there: ...", "gone: ...", "changed: ..."
  same: boolean;
}

export async function rejudgeOn(cycleDir: string, original: CycleRecord, settings: ScenarioSettings, runtime: ServerRuntime, outDir: string, signal?: AbortSignal): Promise<Rejudged> {
  const plan = JSON.parse(readFileSync(join(cycleDir, 'cut', 'plan.json'), 'utf8')) as CrashPlan;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const { record } = await judgeCut({ id: 'rejudged', cycleDir, plan, outDir, settings, runtime, ...(signal ? { signal } : {}) });
  const logPath = join(outDir, 'error.log');
  const log = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
  const notTheirs = record.serverStarted ? null : NOT_THEIRS.map((p) => p.exec(log)?.[0]).find(Boolean) ?? null;
  const was = failureOf(original);
  const now = failureOf(record);
  const same = sameFailure(was, now);
  const verdictLine = same ? `the failure is still there: ${describeFailure(now!)}`
    : !now ? `the failure is gone: ${record.verdict}` + (record.verdict === 'rig-error' ? ` (${record.reason})` : ', the server recovered')
      : `the failure changed: ${describeFailure(now)} (the rig saw ${was ? describeFailure(was) : original.verdict})`;
  return { record, dir: outDir, notTheirs, verdictLine, same };
}
