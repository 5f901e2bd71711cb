/**
 * `rig cycle`'s summary of a cycle on RocksDB tables: the engine in the settings line and the
 * writes pending into RocksDB's files by fate; an InnoDB cycle shows neither.
 */
import t from 'tap';
import { formatCycleSummary } from '../../rig/cycle/cycle-summary.js';
import { DEFAULT_DISK, DEFAULT_LOAD, DEFAULT_SERVER } from '../../rig/defaults.js';
import type { ScenarioSettings } from '../../rig/results/types.js';
import { cycleRecord } from '../fixtures/cycle-record.js';

const settings = (engine: 'innodb' | 'rocksdb'): ScenarioSettings => ({
  name: 's', runtime: 'docker', image: 'powercut-rig/mariadb-offline:11.8', server: { ...DEFAULT_SERVER, engine }, disk: DEFAULT_DISK, load: DEFAULT_LOAD,
  expect: engine === 'rocksdb' ? 'commits-kept' : 'recovers',
});
const planned = { id: 's-1', scenario: 's', cycle: 1, seed: 1 };

t.test('a RocksDB cycle names its engine and the writes pending into RocksDB files', async (t) => {
  const rocksdbWrites = {
    wal: { files: ['./#rocksdb/000059.log'], landed: 0, dropped: 1, torn: 0 },
    other: { files: ['./#rocksdb/000061.sst'], landed: 4, dropped: 6, torn: 6 },
  };
  const text = formatCycleSummary(cycleRecord(planned, settings('rocksdb'), 'no-torn', 0, { rocksdbWrites }));
  t.match(text, /settings: engine rocksdb, doublewrite on,/);
  t.match(text, /rocksdb writes pending at the cut: log 0 landed, 1 dropped, 0 torn; SST and MANIFEST 4 landed, 6 dropped, 6 torn/);
  t.match(text, /expected commits-kept/);
});

t.test('an InnoDB cycle says nothing of RocksDB', async (t) => {
  const text = formatCycleSummary(cycleRecord(planned, settings('innodb'), 'no-torn'));
  t.notMatch(text, /rocksdb/i);
});
