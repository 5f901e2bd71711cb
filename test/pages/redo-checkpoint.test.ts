/**
 * The redo log's checkpoint, from the first 12 KiB of an ib_logfile0 that MariaDB 10.11.19
 * wrote (mariadb-install-db): blocks at 4096 (LSN 44388) and 8192 (LSN 44238); and from the
 * headers of MySQL 9.7.4's #innodb_redo files in a crash image.
 */
import t from 'tap';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMysqlCheckpoint, readMysqlRedoHeader } from '../../rig/pages/mysql-redo-checkpoint.js';
import { readCheckpoint, readCheckpointHeader } from '../../rig/pages/redo-checkpoint.js';
import { fixtureFile } from '../fixtures/fixture-files.js';

const header = readFileSync(fixtureFile('redo', 'mariadb-10.11-ib_logfile0.head'));

t.test('the valid checkpoint block with the larger LSN wins', async (t) => {
  t.same(readCheckpointHeader(header), { checkpoint: { lsn: 0xad64, endLsn: 0xad64, block: 4096 } });
});

t.test('a block whose checksum fails is ignored', async (t) => {
  const damaged = Buffer.from(header);
  damaged.writeUInt8(damaged.readUInt8(4096 + 7) ^ 1, 4096 + 7);
  t.same(readCheckpointHeader(damaged), { checkpoint: { lsn: 0xacce, endLsn: 0xacce, block: 8192 } });
  damaged.writeUInt8(damaged.readUInt8(8192 + 3) ^ 1, 8192 + 3);
  t.match(readCheckpointHeader(damaged), { checkpoint: null, why: /neither checkpoint block/ });
});

t.test('other formats and short files say why they were not read', async (t) => {
  const other = Buffer.from(header);
  other.writeUInt32BE(1, 0);
  t.match(readCheckpointHeader(other), { checkpoint: null, why: /not a MariaDB 10\.8\+ redo log/ });
  t.match(readCheckpointHeader(header.subarray(0, 4096)), { checkpoint: null, why: /shorter than its header/ });
});

t.test('MariaDB 11.8.9 keeps the 10.8 format: "Phys", blocks at 4096 and 8192 (mariadb-install-db, then restarts)', async (t) => {
  const header118 = readFileSync(fixtureFile('redo', 'mariadb-11.8-ib_logfile0.head'));
  t.equal(header118.subarray(16, 30).toString('latin1'), 'MariaDB 11.8.9', 'the creator the header names');
  t.same(readCheckpointHeader(header118), { checkpoint: { lsn: 45434, endLsn: 45434, block: 4096 } });
  const damaged = Buffer.from(header118);
  damaged.writeUInt8(damaged.readUInt8(4096) ^ 1, 4096);
  t.same(readCheckpointHeader(damaged), { checkpoint: { lsn: 0xb025, endLsn: 0xb16a, block: 8192 } }, 'the other block when one fails');
});

t.test('MySQL 9.7.4: the newest checkpoint over #innodb_redo/#ib_redoN, the one its log names', async (t) => {
  // headers (2 KiB each) of a crash image whose recovery logged "The latest found checkpoint is at
  // lsn = 24831150 in redo log file ./#innodb_redo/#ib_redo7"
  const fixture = fixtureFile('redo', 'mysql-9.7-innodb_redo');
  const datadir = t.testdir({ '#innodb_redo': {} });
  for (const name of readdirSync(fixture)) copyFileSync(join(fixture, name), join(datadir, '#innodb_redo', name));
  const read = readMysqlRedoHeader(readFileSync(join(fixture, '#ib_redo7')));
  t.same(read, { header: { format: 6, startLsn: 22013952, creator: 'MySQL 9.7.4', checkpoints: [{ block: 512, lsn: 24831150 }] } });
  const checkpoint = { lsn: 24831150, endLsn: null, block: 512, file: '#innodb_redo/#ib_redo7' };
  t.same(await readMysqlCheckpoint(datadir), { checkpoint });
  t.same(await readCheckpoint(datadir), { checkpoint });
  t.match(readMysqlRedoHeader(readFileSync(join(fixture, '#ib_redo10_tmp'))), { header: null, why: /header block fails its checksum/ }, 'a spare file is zeros');
});

t.test('MySQL redo: a damaged checkpoint block is skipped, and no file at all is said', async (t) => {
  const fixture = fixtureFile('redo', 'mysql-9.7-innodb_redo', '#ib_redo7');
  const damaged = Buffer.from(readFileSync(fixture));
  damaged.writeUInt8(damaged.readUInt8(512 + 9) ^ 1, 512 + 9);
  t.same(readMysqlRedoHeader(damaged).header?.checkpoints, []);
  const datadir = t.testdir({ '#innodb_redo': {} });
  writeFileSync(join(datadir, '#innodb_redo', '#ib_redo7'), damaged);
  t.match(await readMysqlCheckpoint(datadir), { checkpoint: null, why: /^no valid checkpoint block in 1 redo file/ });
  mkdirSync(join(datadir, 'empty'));
  t.match(await readCheckpoint(join(datadir, 'empty')), { checkpoint: null, why: /^no ib_logfile0, and #innodb_redo: no #ib_redoN file/ });
  const old = Buffer.from(readFileSync(fixture));
  old.writeUInt32BE(4, 0);
  t.match(readMysqlRedoHeader(old), { header: null, why: /checksum/ }, 'the header block is checksummed');
});
