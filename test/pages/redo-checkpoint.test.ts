/**
 * The redo log's checkpoint, from the first 12 KiB of an ib_logfile0 that MariaDB 10.11.19
 * wrote (mariadb-install-db): blocks at 4096 (LSN 44388) and 8192 (LSN 44238).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { readCheckpointHeader } from '../../rig/pages/redo-checkpoint.js';

const header = readFileSync(new URL('../fixtures/redo/mariadb-10.11-ib_logfile0.head', import.meta.url));

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
  const header118 = readFileSync(new URL('../fixtures/redo/mariadb-11.8-ib_logfile0.head', import.meta.url));
  t.equal(header118.subarray(16, 30).toString('latin1'), 'MariaDB 11.8.9', 'the creator the header names');
  t.same(readCheckpointHeader(header118), { checkpoint: { lsn: 45434, endLsn: 45434, block: 4096 } });
  const damaged = Buffer.from(header118);
  damaged.writeUInt8(damaged.readUInt8(4096) ^ 1, 4096);
  t.same(readCheckpointHeader(damaged), { checkpoint: { lsn: 0xb025, endLsn: 0xb16a, block: 8192 } }, 'the other block when one fails');
});
