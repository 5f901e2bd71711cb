/**
 * Sweeps the run directories (rig-srv-*) of rig processes that are gone: kills the host server a
 * directory records (only while /proc says it is still that directory's server), then removes the
 * directory. A directory whose owner still runs is left alone, and so is one that names no owner
 * (being made this instant, or made before run directories named their owner: nothing says whose).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SweepOutcome, SweepScope } from '../../faults/sweep-disks.js';
import { RUN_DIR_OWNER, RUN_DIR_PREFIX, runDirParent } from '../cycle/server-dirs.js';
import { sweepLocalServer } from '../runtime/sweep-local-server.js';
import { ownerAlive, readOwner } from '../process-owner.js';

export async function sweepServers(_scope: SweepScope, parent = runDirParent()): Promise<SweepOutcome> {
  const out: SweepOutcome = { removed: [], kept: [], problems: [] };
  const names = (await readdir(parent).catch(() => [] as string[])).filter((n) => n.startsWith(RUN_DIR_PREFIX));
  for (const name of names) {
    const dir = join(parent, name);
    const owner = readOwner(await readFile(join(dir, RUN_DIR_OWNER), 'utf8').catch(() => null));
    if (!owner || ownerAlive(owner)) continue;
    const killed = await sweepLocalServer(dir);
    if (killed && !killed.gone) {
      out.problems.push(`server pid ${killed.pid} of ${dir} did not die after SIGKILL`);
      continue;
    }
    if (killed) out.removed.push(`killed server pid ${killed.pid} (run folder ${dir}, its rig process is gone)`);
    await rm(dir, { recursive: true, force: true });
    out.removed.push(`removed run folder ${dir}`);
  }
  return out;
}
