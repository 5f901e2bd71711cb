/**
 * `rig bundle CYCLE_DIR --out FILE.tar.gz [--with-image]`: what a server developer needs to run a
 * failing cycle's recovery again on their own build, with no rig (rig/bundle/write-bundle.ts):
 * the datadir of its crash image, the server's options, what the rig saw, a README and
 * reproduce.sh. Exit 0 when written, 2 on bad input (nothing made), 3 on a rig failure.
 */
import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeBundle } from '../../bundle/write-bundle.js';
import { contextFromEnv } from '../../context.js';
import { loadCycleRecord } from '../../repro/repro.js';
import { failureOf } from '../../findings/failure-signature.js';
import { badInput } from '../../errors.js';
import { runInterruptible } from '../../interrupts.js';
import { runAction } from '../run-action.js';

async function bundle(dirArg: string, opts: { out: string; withImage?: boolean }): Promise<number> {
  const cycleDir = resolve(dirArg);
  const out = resolve(opts.out);
  const record = loadCycleRecord(cycleDir);
  if (record.verdict === 'rig-error') throw badInput(`${cycleDir} is a rig error (${record.error ?? record.reason}), not a failure of the server's: nothing to bundle`);
  if (!failureOf(record)) throw badInput(`${cycleDir} held its expectation (${record.expectation}: ${record.verdict}): nothing to bundle; name a cycle that contradicted it`);
  const evidence = record.explore ? ['plan.json'] : ['cut/image.img', 'cut/journal.bin', 'cut/plan.json'];
  const missing = evidence.find((f) => !existsSync(resolve(cycleDir, f)));
  if (missing) throw badInput(`${cycleDir} kept no evidence (${missing} is missing): its crash image cannot be rebuilt, so it cannot be bundled`);
  if (!/\.(tar\.gz|tgz)$/.test(out)) throw badInput(`--out ${out}: a bundle is a gzipped tarball; name it NAME.tar.gz`);
  if (existsSync(out)) throw badInput(`--out ${out} exists; name a new file`);
  const parent = statSync(dirname(out), { throwIfNoEntry: false });
  if (!parent?.isDirectory()) throw badInput(`--out ${out}: ${parent ? `${dirname(out)} is a file` : `the folder ${dirname(out)} does not exist`}; name the tarball in a folder that exists`);
  return runInterruptible(async (signal) => {
    const progress = (line: string) => process.stderr.write(`  ${line}...\n`);
    const result = await writeBundle(cycleDir, record, out, { withImage: opts.withImage === true, environment: contextFromEnv().disk, signal, progress });
    process.stdout.write(`bundle: ${out} (${(result.bytes / 1e6).toFixed(1)} MB)\n  tar xzf ${out} && cd ${result.name} && ./reproduce.sh   (exit 1: reproduced, 0: recovered, 125: cannot run)\n`);
    return 0;
  });
}

export function register(program: Command): void {
  program
    .command('bundle')
    .description("a failing cycle's crash as a tarball a server developer runs with no rig: datadir, options, README, reproduce.sh")
    .argument('<cycle-dir>', "a failing 'rig cycle --out' or 'rig shrink' folder, a campaign's DIR/cycles/ID, or an explore state")
    .requiredOption('--out <file>', 'the tarball to write (NAME.tar.gz)')
    .option('--with-image', 'include the whole crash image (crash.img, sparse) besides its datadir')
    .action(runAction(bundle));
}
