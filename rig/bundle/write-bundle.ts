/**
 * A bundle a server developer runs without the rig: the cycle's crash image rebuilt and served
 * (rig/repro/repro.ts), its datadir copied out exactly as the server sees it (sparse files kept),
 * then beside it the server's options, what the rig saw (expected.env, for reproduce.sh), a README
 * from the record and the finding's write-up, the rig's own record and log, and reproduce.sh;
 * the crash image itself only when asked. All of it as one gzipped tar (sparse), written
 * atomically: a bundle is there whole or not at all. Interrupted (its signal aborted), it stops
 * at the next step, kills a copy or tar under way, and leaves neither the tarball nor its staging.
 */
import { copyFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { execa } from 'execa';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { rebuildAndServe, reproDir, reproDown } from '../repro/repro.js';
import { datadirOn } from '../cycle/server-dirs.js';
import { FINDINGS } from '../findings/catalog.js';
import { FINDING_IDS } from '../results/finding-ids.js';
import { LOAD_FILE, readLoadFile } from '../load/load-file.js';
import { checkAborted } from '../interrupts.js';
import { PACKAGE_ROOT } from '../paths.js';
import type { CycleRecord } from '../results/types.js';
import { serverArgs } from '../runtime/server-args.js';
import { serverIdentity } from '../results/server-identity.js';
import { bundleReadme } from './bundle-readme.js';
import { expectedEnv, imageFor } from './expected-outcome.js';

export const REPRODUCE_SCRIPT = join(PACKAGE_ROOT, 'rig', 'bundle', 'reproduce.sh');

/** Options the script sets itself (paths, the user) are left out: the rest as the rig passed them. */
const SET_BY_SCRIPT = /^--(no-defaults|datadir|socket|pid-file|tmpdir|log-error|user)(=|$)/;

export function portableOptions(record: CycleRecord): string[] {
  const identity = serverIdentity(record.server?.version ?? '');
  const layout = { datadir: '/d', socketPath: '/s', pidFile: '/p', tmpdir: '/t' };
  return serverArgs(layout, record.settings.server, identity).filter((a) => !SET_BY_SCRIPT.test(a));
}

/** Where the server came from: its version, and the image it ran in or the host's package. */
async function identityOf(record: CycleRecord): Promise<string> {
  const version = record.server?.version ?? 'an unknown server';
  if (record.settings.runtime === 'docker') return `${version} (image ${record.settings.image ?? 'unknown'})`;
  const binary = version.split(' ')[0] ?? 'mariadbd';
  const owner = await execa('sh', ['-c', `dpkg -S "$(command -v ${binary} || echo /usr/sbin/${binary})" 2>/dev/null | head -1 | cut -d: -f1`], { reject: false });
  const pkg = owner.stdout.trim();
  if (!pkg) return `${version} (the host's)`;
  const v = await execa('dpkg-query', ['-W', '-f', '${Version}', pkg], { reject: false });
  return `${version} (Debian package ${pkg} ${v.stdout.trim()})`;
}

/** The cycle's load ledger: beside its cut, or an explore state's own. */
function loadOf(cycleDir: string, record: CycleRecord) {
  return readLoadFile(join(cycleDir, record.explore ? LOAD_FILE : join('cut', LOAD_FILE)));
}

export interface BundleResult {
  bytes: number;
  name: string; // the folder the tarball unpacks to
}

export interface BundleOptions {
  withImage: boolean;
  environment?: DiskEnvironment;
  signal?: AbortSignal;
  progress?: (line: string) => void; // each step as it starts
}

export async function writeBundle(cycleDir: string, record: CycleRecord, out: string, options: BundleOptions): Promise<BundleResult> {
  const { withImage, environment, signal } = options;
  const progress = options.progress ?? (() => undefined);
  const name = `${basename(out).replace(/\.(tar\.gz|tgz)$/, '')}`;
  const staging = mkdtempSync(join(dirname(out), '.bundle-'));
  const root = join(staging, name);
  try {
    mkdirSync(join(root, 'rig'), { recursive: true });
    const { disk } = await rebuildAndServe(cycleDir, environment, progress);
    try {
      checkAborted(signal);
      progress(withImage ? 'copying the datadir and the crash image' : 'copying the datadir');
      await execa('cp', ['-a', '--sparse=always', datadirOn(disk.target), join(root, 'datadir')], { cancelSignal: signal });
      if (withImage) await execa('cp', ['--sparse=always', disk.record.image, join(root, 'crash.img')], { cancelSignal: signal });
    } finally {
      await reproDown(cycleDir);
      rmSync(reproDir(cycleDir), { recursive: true, force: true });
    }
    const finding = FINDING_IDS.map((id) => FINDINGS[id]).find((f) => f.matches(record)) ?? null;
    const options = portableOptions(record);
    writeFileSync(join(root, 'server-options.txt'), options.join('\n') + '\n');
    writeFileSync(join(root, 'expected.env'), expectedEnv(record, loadOf(cycleDir, record)));
    copyFileSync(REPRODUCE_SCRIPT, join(root, 'reproduce.sh'));
    chmodSync(join(root, 'reproduce.sh'), 0o755);
    writeFileSync(join(root, 'README.md'), bundleReadme({ record, finding, image: imageFor(record), identity: await identityOf(record), options, withImage }));
    if (finding && existsSync(join(PACKAGE_ROOT, finding.doc))) copyFileSync(join(PACKAGE_ROOT, finding.doc), join(root, 'FINDING.md'));
    writeFileSync(join(root, 'rig', 'cycle.json'), JSON.stringify(record, null, 1) + '\n');
    if (existsSync(join(cycleDir, 'error.log'))) copyFileSync(join(cycleDir, 'error.log'), join(root, 'rig', 'error.log'));
    checkAborted(signal);
    progress('packing the tarball');
    const tmp = join(staging, 'bundle.tar.gz');
    await execa('tar', ['--sparse', '-czf', tmp, '-C', staging, name], { cancelSignal: signal });
    checkAborted(signal);
    renameSync(tmp, out);
    return { bytes: statSync(out).size, name };
  } catch (error) {
    checkAborted(signal); // a copy or tar killed by the interrupt: the interrupt is what happened
    throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
