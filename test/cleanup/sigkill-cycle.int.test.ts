/**
 * `rig cycle` on the host's server, killed with SIGKILL during its load: the server (mariadbd),
 * its run folder and the power-fail disk are left behind. `rig cleanup` kills that server, which
 * holds files on the disk, before it takes the disk down; a second `rig cleanup` finds nothing.
 */
// runs alone: its global `rig cleanup` must find only what its killed cycle left
import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_DIR_OWNER, RUN_DIR_PREFIX } from '../../rig/cycle/server-dirs.js';
import { SERVER_PID_FILE } from '../../rig/runtime/local-server.js';
import { ensureBuilt, leftoversUnder, rig } from '../fixtures/rig-cli.js';

const work = mkdtempSync(join(tmpdir(), 'rig-sigkill-cycle-'));
t.teardown(async () => {
  await rig(['cleanup']);
  rmSync(work, { recursive: true, force: true });
});
t.before(ensureBuilt);

/** The run folder of `pid`'s server, once that server has recorded its pid. */
function serverRunDirOf(pid: number): string | null {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(RUN_DIR_PREFIX))) {
    const dir = join(tmpdir(), name);
    const owner = existsSync(join(dir, RUN_DIR_OWNER)) ? readFileSync(join(dir, RUN_DIR_OWNER), 'utf8') : '';
    if (owner.startsWith(`${pid}:`) && existsSync(join(dir, SERVER_PID_FILE))) return dir;
  }
  return null;
}

t.test('SIGKILL during the load, then rig cleanup: no server, run folder, mount or loop device left', async (t) => {
  const out = join(work, 'cycle');
  const child = rig(
    ['cycle', '--out', out, '--rows', '2000', '--buffer-pool', '32M', '--redo-size', '48M', '--size', '256M', '--trigger', 'after-writes 100000'],
    { RIG_CACHE: join(work, 'cache') },
  );
  const deadline = Date.now() + 240_000;
  let runDir: string | null = null;
  while (Date.now() < deadline && child.exitCode === null) {
    runDir = existsSync(join(out, 'cut', 'disk.json')) ? serverRunDirOf(child.pid!) : null;
    if (runDir) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  t.ok(runDir, 'the load server ran on the power-fail disk');
  child.kill('SIGKILL');
  t.equal((await child).signal, 'SIGKILL');
  const serverPid = Number(readFileSync(join(runDir!, SERVER_PID_FILE), 'utf8'));
  const left = leftoversUnder(out);
  t.ok(left.some((l) => l.startsWith(`pid ${serverPid}: `) && l.includes('mariadbd')), `the server is left: ${left.join('; ')}`);

  const first = await rig(['cleanup']);
  t.equal(first.exitCode, 0, String(first.stderr));
  const lines = String(first.stdout).split('\n');
  t.ok(lines.includes(`killed server pid ${serverPid} (run folder ${runDir}, its rig process is gone)`), 'the server is named');
  t.ok(lines.includes(`removed run folder ${runDir}`), 'its run folder is named');
  t.ok(lines.some((l) => l.startsWith('detached /dev/loop')), 'the loop device is named');
  t.ok(lines.indexOf(`removed run folder ${runDir}`) < lines.findIndex((l) => l.startsWith('detached ')), 'the server goes before its disk');
  t.same(leftoversUnder(out), [], 'no server, helper, mount or loop device names the cycle folder');
  t.notOk(existsSync(runDir!), 'the run folder is gone');
  const second = await rig(['cleanup']);
  t.equal(second.stdout, 'nothing to clean');
});
