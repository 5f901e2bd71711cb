/**
 * Sweeps the guest run folders (vm/runs/run-*) of rig processes that are gone: kills the qemu the
 * folder records (only while its command line still names that folder), then removes the folder.
 * A folder whose owner still runs is left alone, and so is one that names no owner yet.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SweepOutcome } from '../../faults/sweep-disks.js';
import { endProcess, isOurProcess, readPid } from '../docker/process-records.js';
import { RUN_DIR_FILES } from '../vm/run-guest.js';
import { IN_GUEST_ENV } from '../vm/command-script.js';
import { vmPaths } from '../vm/paths.js';
import { ownerAlive, readOwner } from '../process-owner.js';

export async function sweepGuests(workDir: string, env: NodeJS.ProcessEnv = process.env): Promise<SweepOutcome> {
  const out: SweepOutcome = { removed: [], kept: [], problems: [] };
  // inside a guest the runs folder is the host's, read-only, and its qemu (the very one this
  // rig runs in) is not in this kernel's process table: the host sweeps its own
  if (env[IN_GUEST_ENV] === '1') return out;
  const { runsDir } = vmPaths(workDir);
  for (const name of await readdir(runsDir).catch(() => [] as string[])) {
    const dir = join(runsDir, name);
    const owner = readOwner(await readFile(join(dir, RUN_DIR_FILES.owner), 'utf8').catch(() => null));
    if (!owner || ownerAlive(owner)) continue;
    const pid = await readPid(join(dir, RUN_DIR_FILES.qemuPid));
    if (pid !== null && (await isOurProcess(pid, dir))) {
      await endProcess(pid, 0);
      if (await isOurProcess(pid, dir)) {
        out.problems.push(`guest qemu pid ${pid} of ${dir} did not die after SIGKILL`);
        continue;
      }
      out.removed.push(`killed guest qemu pid ${pid} (run folder ${dir}, its rig process is gone)`);
    }
    await rm(dir, { recursive: true, force: true });
    out.removed.push(`removed guest run folder ${dir}`);
  }
  return out;
}
