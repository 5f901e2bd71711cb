/**
 * Recovery on the crash image: serve it on a fresh power-fail disk (no trigger), scan every page
 * and the doublewrite copies before the server touches it, start the server with a bound, check
 * the ledger and every table, shut down cleanly, and scan again.
 */
import { mkdirSync } from 'node:fs';
import { checkInvariants, checkTables, verifyLedger } from '../checks/index.js';
import { closeQuietly, connectToServer } from '../runtime/connect.js';
import type { LoadResult } from '../load/index.js';
import { buildExtentMap, readDoublewrite, scanDatadir, type DatadirScan, type DoublewriteCopy, type ExtentMap } from '../pages/index.js';
import type { CycleRecord, ScenarioSettings } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import { readCheckpoint, type CheckpointRead } from '../pages/redo-checkpoint.js';
import { startDisk, type PowerFailDisk } from '../../faults/power-fail-disk.js';
import type { CleanupStack } from './cleanup-stack.js';
import { DATADIR_NAME, datadirOn, makeRunDir } from './server-dirs.js';
import { diskOptionsFor } from './disk-options.js';

const RECOVERY_TIMEOUT_MS = 120_000;

export interface CrashScan {
  disk: PowerFailDisk;
  datadir: string;
  scan: DatadirScan;
  extents: ExtentMap;
  copies: DoublewriteCopy[];
  checkpoint: CheckpointRead;
}

export async function mountAndScanCrashImage(
  settings: ScenarioSettings,
  crashImage: string,
  dir: string,
  cleanup: CleanupStack,
): Promise<CrashScan> {
  mkdirSync(dir, { recursive: true });
  const disk = await startDisk(diskOptionsFor(settings, dir, { adoptImage: crashImage }));
  cleanup.push('recovery disk', () => disk.down());
  const datadir = datadirOn(disk.target);
  const [scan, extents, copies, checkpoint] = await Promise.all([
    scanDatadir(datadir),
    buildExtentMap(disk.target, DATADIR_NAME),
    readDoublewrite(datadir),
    readCheckpoint(datadir),
  ]);
  return { disk, datadir, scan, extents, copies, checkpoint };
}

export interface RecoveryResult {
  started: boolean;
  errorLog: string;
  ledger: CycleRecord['ledger'];
  checkTable: CycleRecord['checkTable'];
  invariants: CycleRecord['invariants'];
  scanAfter: DatadirScan | null;
}

async function checkRecovered(
  socketPath: string,
  load: LoadResult,
  dataset: ScenarioSettings['load'],
): Promise<Pick<RecoveryResult, 'ledger' | 'checkTable' | 'invariants'>> {
  const connection = await connectToServer({ socketPath });
  try {
    const ledger = load.ledger
      ? await verifyLedger(connection, load)
      : { checked: false, acked: load.ackedCount, missing: 0, note: load.note ?? 'the load kept no ledger' };
    const invariants = await checkInvariants(connection, { tables: dataset.tables, rows: dataset.rows, ledger: load.ledger });
    const tables = await checkTables(connection);
    return {
      ledger: { checked: ledger.checked, acked: ledger.acked, missing: ledger.missing, note: 'note' in ledger ? ledger.note : undefined },
      checkTable: { tables: tables.tables, failed: tables.failed },
      // a ledger row ahead of what its client could have committed breaks the ledger's invariant
      invariants: { checked: true, violations: [...invariants.violations, ...('unexplained' in ledger ? ledger.unexplained : [])] },
    };
  } finally {
    await closeQuietly(connection);
  }
}

export async function recoverServer(
  settings: ScenarioSettings,
  runtime: ServerRuntime,
  crash: CrashScan,
  load: LoadResult,
  cleanup: CleanupStack,
  signal?: AbortSignal,
): Promise<RecoveryResult> {
  const runDir = makeRunDir();
  cleanup.push('recovery run dir', async () => runDir.remove());
  const spec = { datadir: crash.datadir, runDir: runDir.path, settings: settings.server, signal };
  const outcome = await runtime.start(spec, RECOVERY_TIMEOUT_MS);
  const notChecked = { checked: false, acked: load.ackedCount, missing: 0, note: 'the server did not start' };
  if (!outcome.ready) {
    return {
      started: false, errorLog: outcome.errorLog, ledger: notChecked, checkTable: { tables: 0, failed: [] },
      invariants: { checked: false, violations: [] }, scanAfter: null,
    };
  }
  const server = outcome.server;
  cleanup.push('recovery server', () => server.kill());
  const checks = await checkRecovered(server.socketPath, load, settings.load);
  const errorLog = await server.errorLog();
  await server.stop();
  await cleanup.runNamed('recovery server');
  const scanAfter = await scanDatadir(crash.datadir);
  return { started: true, errorLog, ...checks, scanAfter };
}
