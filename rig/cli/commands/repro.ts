/**
 * `rig repro CYCLE_DIR`: rebuild a cycle's crash image byte for byte, check its sha256, leave it
 * mounted and print the server command (of the host's server; a docker cycle's runs in its image,
 * through `--recover`); `--recover` runs the recovery check on it again;
 * `--down` takes it down.
 */
import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { DEFAULT_RECOVERY_BOUNDS } from '../../defaults.js';
import { contextFromEnv } from '../../context.js';
import { runInterruptible } from '../../interrupts.js';
import { CleanupStack } from '../../cycle/cleanup-stack.js';
import { rebuildAndServe, reproDown } from '../../cycle/repro.js';
import { datadirOn, makeRunDir } from '../../cycle/server-dirs.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { findServerBinary } from '../../runtime/find-server-binary.js';
import { localLayout } from '../../runtime/local.js';
import { serverArgs } from '../../runtime/server-args.js';
import { runAction } from '../run-action.js';

const quote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

async function repro(dirArg: string, opts: { recover?: boolean; down?: boolean }): Promise<number> {
  const cycleDir = resolve(dirArg);
  if (opts.down) {
    process.stdout.write((await reproDown(cycleDir)) ? 'repro disk taken down\n' : 'no repro disk was up\n');
    return 0;
  }
  return runInterruptible(async (signal) => {
    const { record, disk, sha256 } = await rebuildAndServe(cycleDir, contextFromEnv().disk);
    process.stdout.write(`crash image rebuilt, sha256 ${sha256} (matches the record)\n`);
    const datadir = datadirOn(disk.target);
    if (!opts.recover && record.settings.runtime === 'docker') {
      // the host's server may not be the one that ran (nor accept its settings): it runs in the image
      process.stdout.write(`datadir ${datadir} (mounted)\nthe cycle's server ran in ${record.settings.image ?? 'its image'} (${record.server?.version ?? 'version unknown'}): rig repro --recover ${quote(cycleDir)} starts it there on this image\n`);
      process.stdout.write(`when done: rig repro --down ${quote(cycleDir)}\n`);
      return 0;
    }
    if (!opts.recover) {
      const binary = await findServerBinary();
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
      const bound = record.recovery?.bounds.startMs ?? DEFAULT_RECOVERY_BOUNDS.startMs; // the cycle's own, if it recorded one
      const outcome = await runtime.start({ datadir, runDir: runDir.path, settings: record.settings.server, signal }, bound);
      if (!outcome.ready) {
        process.stdout.write(`the server refused to start again (exit ${outcome.exitCode}); last log lines:\n${outcome.errorLog.trim().split('\n').slice(-5).join('\n')}\n`);
      } else {
        process.stdout.write(`the server started on the crash image; socket ${outcome.server.socketPath}\n`);
        await outcome.server.stop();
      }
      return 0;
    } finally {
      await cleanup.releaseAll();
      await reproDown(cycleDir);
    }
  });
}

export function register(program: Command): void {
  program
    .command('repro')
    .description("rebuild a cycle's crash image byte for byte and leave it mounted for inspection")
    .argument('<cycle-dir>', "a 'rig cycle --out' folder or a campaign's DIR/cycles/ID")
    .option('--recover', 'start the server on it again (then take it down)')
    .option('--down', 'take down a repro left mounted')
    .action(runAction(repro));
}
