import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRigCause } from '../../rig/runtime/rig-cause.js';
import { fixtureFile } from '../fixtures/fixture-files.js';

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
  for (const folder of ['mariadb-10.11-error-logs', 'mysql-8-error-logs', 'mysql-9.7-error-logs']) {
    const dir = fixtureFile(folder);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.log'))) {
      t.equal(findRigCause(readFileSync(join(dir, file), 'utf8')), null, `${folder}/${file}`);
    }
  }
});

t.test("MySQL in a container without CAP_SYS_NICE loses its NUMA policy and starts anyway: not the rig's cause", async (t) => {
  const log = [
    'get_mempolicy: Operation not permitted',
    '2026-11-30T14:28:22.065742Z 1 [Warning] [MY-011873] [InnoDB] Failed to set NUMA memory policy to MPOL_INTERLEAVE: Operation not permitted',
    '2026-11-30T14:31:51.049592Z 1 [ERROR] [MY-013183] [InnoDB] Assertion failure: log0recv.cc:1205:ib::fatal triggered thread 139768455493312',
  ].join('\n');
  t.equal(findRigCause(log), null);
  t.match(findRigCause(`${log}\n[ERROR] mysqld: Can't create/write to file './x' (OS errno 13 - Permission denied)`), { reason: 'permission denied' });
});
