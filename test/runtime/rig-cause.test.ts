import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRigCause } from '../../rig/runtime/rig-cause.js';

// Lines mariadbd 10.11 printed here when the rig, not the data, kept it from starting.
const rigLines: Array<[string, string]> = [
  ['socket path too long', '2026-11-30  5:41:34 0 [ERROR] The socket file path is too long (> 107): /tmp/x/s.sock'],
  ['datadir missing', "/usr/sbin/mariadbd: Can't change dir to '/tmp/r/nodata/' (Errcode: 2 \"No such file or directory\")"],
  ['permission denied', "2026-11-30  5:41:42 0 [ERROR] mariadbd: Can't create/write to file './ddl_recovery.log' (Errcode: 1 \"Operation not permitted\")"],
  ['another server on the same datadir or socket', '2026-11-30  5:50:28 0 [ERROR] InnoDB: Unable to lock ./ibdata1 error: 11'],
  ['no space left', '2026-11-30  6:00:00 0 [ERROR] InnoDB: Operating system error number 28 in a file operation.'],
  ['no space left', "[ERROR] mariadbd: Disk full (./sbtest/sbtest1.ibd); waiting for someone to free some space..."],
  ['read-only file system', "[ERROR] mariadbd: Can't create/write to file './aria_log_control' (Errcode: 30 \"Read-only file system\")"],
  ['I/O error from the disk', '[ERROR] InnoDB: Operating system error number 5 in a file operation.'],
  ['option the server does not know', "[ERROR] /usr/sbin/mariadbd: unknown variable 'innodb-redo-log-capacity=1G'"],
];

t.test('names the rig cause of each recorded line', async (t) => {
  for (const [reason, line] of rigLines) {
    t.same(findRigCause(`2026-11-30 [Note] Starting\n${line}\n[ERROR] Aborting\n`), { reason, line: line.trim() }, reason);
  }
});

t.test('never blames the rig for what a power cut does to the data', async (t) => {
  for (const folder of ['mariadb-10.11-error-logs', 'mysql-8-error-logs']) {
    const dir = join(import.meta.dirname, '..', 'fixtures', folder);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.log'))) {
      t.equal(findRigCause(readFileSync(join(dir, file), 'utf8')), null, `${folder}/${file}`);
    }
  }
});
