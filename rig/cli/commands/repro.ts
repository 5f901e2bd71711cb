/**
 * `rig repro CYCLE_DIR`: rebuild a cycle's crash image byte for byte, check its digest, leave it
 * mounted and print the server command (of the host's server; a docker cycle's runs in its image,
 * through `--recover`); `--recover` runs the recovery check on it again; `--recover` with
 * `--runtime`, `--image` or `--server-binary` judges it again on that server with the rig's oracle
 * (rig/cycle/rejudge-on.ts) and says whether the failure is still there (exit 1) or gone (exit 0);
 * `--down` takes it down.
 */
import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { DEFAULT_RECOVERY_BOUNDS } from '../../defaults.js';
import { contextFromEnv } from '../../context.js';
import { checkAborted, runInterruptible } from '../../interrupts.js';
import { CleanupStack } from '../../cycle/cleanup-stack.js';
import { rebuildAndServe, reproDir, reproDown } from '../../repro/repro.js';
import { readRecord } from '../../../faults/disk-record.js';
import { datadirOn, makeRunDir } from '../../cycle/server-dirs.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { findServerBinary } from '../../runtime/find-server-binary.js';
import { localLayout } from '../../runtime/local.js';
import { serverArgs } from '../../runtime/server-args.js';
import { runAction } from '../run-action.js';
import { existsSync, rmSync } from 'node:fs';
import { badInput } from '../../errors.js';
import { loadCycleRecord } from '../../repro/repro.js';
import { rejudgeOn } from '../../cycle/rejudge-on.js';
import { stallText } from '../../cycle/judge.js';
import { stateAsCut } from '../../explore/barrier-cut.js';
import { createLocalRuntime } from '../../runtime/local.js';
import type { ServerRuntime } from '../../runtime/types.js';
import { unsupportedSetting } from '../../runtime/server-args.js';
import { serverIdentity } from '../../results/server-identity.js';
import { classifyErrorLog, excerptErrorLog } from '../../logs/index.js';

const quote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

interface ReproOptions {
  recover?: boolean;
  down?: boolean;
  runtime?: string;
  image?: string;
  serverBinary?: string;
}

/** The server `--runtime`, `--image` and `--server-binary` name for a re-judgement, or null when none is named. */
function otherServer(opts: ReproOptions): { runtime: 'local' | 'docker'; image?: string; binary?: string } | null {
  if (opts.runtime === undefined && opts.image === undefined && opts.serverBinary === undefined) return null;
  if (!opts.recover) throw badInput('--runtime, --image and --server-binary name the server for --recover; add --recover');
  if (opts.runtime !== undefined && opts.runtime !== 'local' && opts.runtime !== 'docker') throw badInput(`--runtime ${opts.runtime}: use local or docker`);
  if (opts.serverBinary !== undefined && (opts.image !== undefined || opts.runtime === 'docker')) throw badInput('--server-binary runs a binary on this host: leave out --image and --runtime docker');
  if (opts.serverBinary !== undefined) return { runtime: 'local', binary: resolve(opts.serverBinary) };
  if (opts.image !== undefined && opts.runtime === 'local') throw badInput('--image is for --runtime docker');
  return { runtime: opts.image !== undefined ? 'docker' : (opts.runtime as 'local' | 'docker'), ...(opts.image ? { image: opts.image } : {}) };
}

/** The cycle's crash image judged by the same oracle on another server; exit 1 while the failure is still there. */
async function rejudgeOnServer(cycleDir: string, server: NonNullable<ReturnType<typeof otherServer>>, signal: AbortSignal): Promise<number> {
  const record = loadCycleRecord(cycleDir);
  const settings = { ...record.settings, runtime: server.runtime, ...(server.image ? { image: server.image } : {}) };
  if (server.runtime === 'local') delete settings.image;
  const context = contextFromEnv();
  const runtime: ServerRuntime = server.binary ? createLocalRuntime(server.binary) : await createRuntime(settings, context, signal);
  const work = join(cycleDir, 'rejudged');
  try {
    const { server: name, version } = await runtime.describe();
    const problem = unsupportedSetting(settings.server, serverIdentity(version));
    if (problem) throw badInput(problem);
    const source = record.explore ? await stateAsCut(cycleDir, record, join(work, 'state')) : cycleDir;
    const outDir = join(work, `${name}-${version}`.replace(/[^\w.-]+/g, '_'));
    const done = await rejudgeOn(source, record, settings, runtime, outDir, signal);
    rmSync(join(work, 'state'), { recursive: true, force: true });
    if (done.notTheirs) throw badInput(`${name} ${version} cannot recover this crash image, which ${record.server?.version ?? 'another server'} wrote: "${done.notTheirs}"; re-judge it on a server of the same release`);
    process.stdout.write(`re-judged on ${name} ${version}${server.image ? ` (image ${server.image})` : server.binary ? ` (${server.binary})` : ''}: ${done.record.verdict}: ${done.record.reason}\n  ${done.verdictLine}\n  record: ${join(outDir, 'cycle.json')}\n`);
    if (done.record.verdict === 'rig-error') return 3;
    return done.record.expectationHeld ? 0 : 1;
  } finally {
    await runtime.close?.();
  }
}

async function repro(dirArg: string, opts: ReproOptions): Promise<number> {
  const cycleDir = resolve(dirArg);
  if (opts.down) {
    if (!existsSync(cycleDir)) throw badInput(`${dirArg}: no such folder; name the folder 'rig repro' was run on`);
    if (opts.recover || opts.runtime !== undefined || opts.image !== undefined || opts.serverBinary !== undefined) throw badInput("--down takes a repro down and starts nothing; run 'rig repro --down' alone, or drop --down");
    // a folder of no cycle has no repro to take down: named as such, not as 'no repro was up'
    if (!readRecord(reproDir(cycleDir))) loadCycleRecord(cycleDir);
    process.stdout.write((await reproDown(cycleDir)) ? 'repro disk taken down\n' : 'no repro disk was up\n');
    return 0;
  }
  const other = otherServer(opts);
  if (other) {
    loadCycleRecord(cycleDir); // bad input before anything starts
    return runInterruptible((signal) => rejudgeOnServer(cycleDir, other, signal));
  }
  loadCycleRecord(cycleDir); // bad input before anything starts
  return runInterruptible(async (signal) => {
    const { record, disk, check } = await rebuildAndServe(cycleDir, contextFromEnv().disk, (line) => process.stderr.write(`  ${line}...\n`));
    // interrupted while it was built: taken down, not left up for a person who asked to stop
    const downIfInterrupted = async (): Promise<void> => {
      if (!signal.aborted) return;
      await reproDown(cycleDir);
      rmSync(reproDir(cycleDir), { recursive: true, force: true });
      checkAborted(signal);
    };
    await downIfInterrupted();
    process.stdout.write(`crash image rebuilt, ${check} (matches the record)\n`);
    const datadir = datadirOn(disk.target);
    if (!opts.recover && record.settings.runtime === 'docker') {
      // the host's server may not be the one that ran (nor accept its settings): it runs in the image
      process.stdout.write(`datadir ${datadir} (mounted)\nthe cycle's server ran in ${record.settings.image ?? 'its image'} (${record.server?.version ?? 'version unknown'}): rig repro --recover ${quote(cycleDir)} starts it there on this image\n`);
      process.stdout.write(`when done: rig repro --down ${quote(cycleDir)}\n`);
      return 0;
    }
    if (!opts.recover) {
      const binary = await findServerBinary();
      await downIfInterrupted();
      const layout = localLayout({ datadir, runDir: join(cycleDir, 'repro', 'run'), settings: record.settings.server });
      const cmd = [binary.path, ...serverArgs(layout, record.settings.server, binary)].map(quote).join(' ');
      process.stdout.write(`datadir ${datadir} (mounted)\nstart the server by hand:\n  mkdir -p ${quote(join(cycleDir, 'repro', 'run'))} && ${cmd}\n`);
      process.stdout.write(`when done: rig repro --down ${quote(cycleDir)}\n`);
      return 0;
    }
    const cleanup = new CleanupStack();
    try {
      const runtime = await createRuntime(record.settings, contextFromEnv(), signal);
      cleanup.push('runtime', async () => runtime.close?.());
      const runDir = makeRunDir();
      cleanup.push('run dir', async () => runDir.remove());
      // the cycle's own bounds where it recorded them (a record from before the stall check has none)
      const bounds = { ...DEFAULT_RECOVERY_BOUNDS, ...record.recovery?.bounds };
      const outcome = await runtime.start({ datadir, runDir: runDir.path, settings: record.settings.server, signal }, bounds.startMs, bounds.stallMs);
      if (!outcome.ready && outcome.timedOut) {
        const how = outcome.stalled ? stallText(outcome.stalled) : `it did not answer within ${bounds.startMs / 1000} s`;
        process.stdout.write(`the server hung again: ${how}, and was killed; ${tellingLines(outcome.errorLog)}\n`);
      } else if (!outcome.ready) {
        process.stdout.write(`the server refused to start again (exit ${outcome.exitCode}); ${tellingLines(outcome.errorLog)}\n`);
      } else {
        process.stdout.write(`the server started on the crash image; socket ${outcome.server.socketPath}\n`);
        await outcome.server.stop();
      }
      return 0;
    } finally {
      await cleanup.releaseAll();
      await reproDown(cycleDir);
      // its disk is down: the folder holds only the rebuilt image, rebuilt again by the next repro
      rmSync(reproDir(cycleDir), { recursive: true, force: true });
    }
  });
}

/** What a refusing server's log says of why, numbered as in the log: the lines the rig's classifier
 * flags, the most telling kinds first (the cause comes before the generic "Aborting" lines that
 * end the log); where it flags none, the log's last lines. */
function tellingLines(log: string): string {
  const excerpt = excerptErrorLog(log, classifyErrorLog(log), 8, 0);
  if (excerpt) return `its log's telling lines:\n${excerpt}`;
  return `its log's last lines:\n${log.trim().split('\n').slice(-5).join('\n')}`;
}

export function register(program: Command): void {
  program
    .command('repro')
    .description("rebuild a cycle's crash image byte for byte and leave it mounted for inspection")
    .argument('<cycle-dir>', "a 'rig cycle --out' folder or a campaign's DIR/cycles/ID")
    .option('--recover', 'start the server on it again (then take it down)')
    .option('--down', 'take down a repro left mounted')
    .option('--runtime <runtime>', 'with --recover: judge the crash image again on this runtime (local or docker), with the rig\'s oracle')
    .option('--image <image>', 'with --recover: ... in this image (implies --runtime docker)')
    .option('--server-binary <path>', 'with --recover: ... with this mariadbd or mysqld (a build of your own)')
    .action(runAction(repro));
}
