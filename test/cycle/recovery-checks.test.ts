// Telling the server's answers from the rig's own trouble, and a crash from a failed shutdown.
import t from 'tap';
import { rejectRigAnswer } from '../../rig/cycle/recovery-checks.js';
import { crashedBeforeShutdown } from '../../rig/cycle/stages/recover.js';
import { RigError } from '../../rig/errors.js';

const answer = (errno: number, message: string) => ({ errno, sqlState: 'HY000', message });

const rigs: [string, object][] = [
  ['a parse error in the rig\'s own SQL', answer(1064, 'You have an error in your SQL syntax')],
  ['an unknown column', answer(1054, "Unknown column 'seq' in 'field list'")],
  ['access denied', answer(1045, "Access denied for user 'root'@'localhost'")],
  ['a full disk', answer(1021, 'Disk full (/tmp/x); waiting for someone to free some space...')],
  ['a table full for lack of space', answer(1114, "The table 'sbtest1' is full")],
  ['an EIO in the message', answer(1030, 'Got error 5 "Input/output error" from storage engine InnoDB')],
];
for (const [name, error] of rigs) {
  t.test(`${name} is the rig's`, async (t) => {
    t.throws(() => rejectRigAnswer(error, 'reading the ledger'), RigError);
    try {
      rejectRigAnswer(error, 'reading the ledger');
    } catch (e) {
      t.equal((e as RigError).code, 'rig-failure');
      t.match((e as Error).message, /^reading the ledger failed because of the rig/);
    }
  });
}

const findings: [string, object][] = [
  ['a missing ledger table', answer(1146, "Table 'rig.rig_ledger' doesn't exist")],
  ['a corrupt index', answer(1712, 'Index rig_ledger is corrupted')],
  ['a tablespace missing', answer(1812, 'Tablespace is missing for table `rig`.`rig_ledger`')],
];
for (const [name, error] of findings) {
  t.test(`${name} is the server's finding`, async (t) => {
    t.doesNotThrow(() => rejectRigAnswer(error, 'reading the ledger'));
  });
}

const READY = '2026-11-30 10:59:01 0 [Note] /usr/sbin/mariadbd: ready for connections.';
const SHUTDOWN = '2026-11-30 10:59:02 0 [Note] /usr/sbin/mariadbd (initiated by: root[root] @ localhost []): Normal shutdown';
const SIGNAL = '251130 10:59:02 [ERROR] mysqld got signal 11 ;';

t.test('a crash report before the shutdown began places the end in the checks', async (t) => {
  t.ok(crashedBeforeShutdown([READY, SIGNAL, 'Server version: 10.11', SHUTDOWN].join('\n')));
  t.ok(crashedBeforeShutdown([READY, SIGNAL].join('\n')), 'a crash report with no shutdown at all');
  t.notOk(crashedBeforeShutdown([READY, SHUTDOWN, SIGNAL].join('\n')), 'a crash in the shutdown is the shutdown\'s');
  t.notOk(crashedBeforeShutdown([READY, SHUTDOWN].join('\n')), 'no crash report: a kill without a word');
});
