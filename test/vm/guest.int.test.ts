/**
 * `rig vm run` boots the real guest (qemu, TCG, the Debian kernel built by `rig vm setup`): the
 * device-mapper targets are there, the host's node runs in the shared folder, output and exit
 * codes pass through; a timeout, Ctrl-C and a killed rig (with `rig cleanup`) leave no guest.
 * Each boot costs the host CPU for some seconds: one boot carries the checks that can share it.
 */
// runs alone: its global `rig cleanup` must find only what its killed guest left
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextFromEnv } from '../../rig/context.js';
import { vmPaths } from '../../rig/vm/paths.js';
import { RUN_DIR_FILES } from '../../rig/vm/run-guest.js';
import { guestCoverage } from '../../rig/vm/guest-coverage.js';
import { SHARE_TAGS } from '../../rig/vm/guest-init.js';
import { ensureBuilt, processesNaming, rig, waitForFile } from '../fixtures/rig-cli.js';

const { runsDir } = vmPaths(contextFromEnv().workDir);
const shared = mkdtempSync(join(tmpdir(), 'rig-vm-int-'));
t.teardown(() => rmSync(shared, { recursive: true, force: true }));
t.before(async () => {
  await ensureBuilt();
  const setup = await rig(['vm', 'setup']);
  if (setup.exitCode !== 0) throw new Error(`rig vm setup failed: ${setup.stderr}`);
});

const runFolders = () => (existsSync(runsDir) ? readdirSync(runsDir) : []);
const guestsNaming = (dir: string) => processesNaming(dir).filter((p) => p.includes('qemu-system'));

t.test('device-mapper targets, node in the shared folder, stdout, stderr and the exit code', async (t) => {
  const before = runFolders();
  const script = [
    'dmsetup targets',
    'node -e "console.log(process.cwd(), process.getuid()); console.error(\'to stderr\')"',
    'echo written-in-the-guest > made-here',
    'echo "cache $RIG_CACHE" && echo built-in-the-guest > "$RIG_CACHE/made-here"',
    'exit 7',
  ].join('; ');
  const started = Date.now();
  const cache = join(shared, 'cache'); // made by the run
  const run = await rig(['vm', 'run', '--dir', shared, '--', 'sh', '-c', script], { RIG_CACHE: cache });
  t.comment(`guest run: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.equal(run.exitCode, 7, `the command's exit code passes through (stderr: ${run.stderr})`);
  const targets = String(run.stdout).split('\n').map((l) => l.split(/\s+/)[0]);
  t.ok(targets.includes('flakey'), 'dm-flakey');
  t.ok(targets.includes('log-writes'), 'dm-log-writes');
  t.ok(String(run.stdout).split('\n').includes(`${shared} 0`), 'node ran as root in the shared folder');
  t.match(run.stderr, /^to stderr$/m, "stderr is the host's stderr");
  t.notMatch(run.stdout, /to stderr/);
  t.equal(readFileSync(join(shared, 'made-here'), 'utf8'), 'written-in-the-guest\n', 'the shared folder is written through');
  t.ok(String(run.stdout).split('\n').includes(`cache ${cache}`), "the guest's RIG_CACHE is the host's");
  t.equal(readFileSync(join(cache, 'made-here'), 'utf8'), 'built-in-the-guest\n', 'the prepared-image cache is shared read-write');
  t.same(runFolders(), before, 'the run folder is gone');
});

t.test('past --timeout: the guest is killed, exit 124, nothing left', async (t) => {
  const run = await rig(['vm', 'run', '--timeout', '2', '--dir', shared, '--', 'sleep', '600']);
  t.equal(run.exitCode, 124);
  t.match(run.stderr, /ran past --timeout 2 s and was killed \(exit 124\)/);
  t.same(guestsNaming(runsDir), []);
});

t.test('Ctrl-C: the guest is killed, the run folder removed, the signal passed on', async (t) => {
  const before = runFolders();
  const child = rig(['vm', 'run', '--dir', shared, '--', 'sleep', '600']);
  const folder = await newRunFolder(before);
  await waitForFile(join(runsDir, folder, RUN_DIR_FILES.qemuPid), 30_000);
  child.kill('SIGINT');
  const run = await child;
  t.equal(run.signal, 'SIGINT');
  t.same(guestsNaming(runsDir), [], 'no qemu left');
  t.notOk(existsSync(join(runsDir, folder)), 'the run folder is gone');
});

t.test('the rig killed with SIGKILL leaves its guest: rig cleanup ends it', async (t) => {
  const before = runFolders();
  const child = rig(['vm', 'run', '--dir', shared, '--', 'sleep', '600']);
  const folder = join(runsDir, await newRunFolder(before));
  await waitForFile(join(folder, RUN_DIR_FILES.qemuPid), 30_000);
  child.kill('SIGKILL');
  await child;
  t.equal(guestsNaming(folder).length, 1, 'the guest outlives its rig');
  // under tap the guest's node processes write coverage into a shared folder: it is in the run
  // folder, so that it goes with it (the rig that would have removed it is gone)
  const shareOf = new RegExp(`(?:^| )-virtfs \\S*path=([^,]+),mount_tag=${SHARE_TAGS.cov.replace('.', '\\.')}[, ]`);
  const coverageShare = shareOf.exec(guestsNaming(folder)[0] ?? '')?.[1];
  if (guestCoverage(process.env)) t.ok(coverageShare?.startsWith(`${folder}/`), `the guest's coverage folder is in its run folder (${coverageShare})`);
  const cleanup = await rig(['cleanup']);
  t.equal(cleanup.exitCode, 0, String(cleanup.stderr));
  t.match(cleanup.stdout, new RegExp(`killed guest qemu pid \\d+ \\(run folder ${folder}, its rig process is gone\\)`));
  t.same(guestsNaming(folder), []);
  t.notOk(existsSync(folder), 'the run folder is gone');
  if (coverageShare) t.notOk(existsSync(coverageShare), "and the guest's coverage folder with it");
});

async function newRunFolder(before: string[]): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const made = runFolders().find((f) => !before.includes(f));
    if (made) return made;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no new run folder in ${runsDir} within 60 s`);
}
