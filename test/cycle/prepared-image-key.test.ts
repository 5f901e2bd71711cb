/**
 * The prepared image's cache key: a load mix whose kinds need no prepared table keeps the key
 * images were built under before mixes existed (so caches are reused and nothing changes for
 * existing campaigns), and a mix with prepared tables gets keys of its own, by kind and count.
 * A missing image where the cache cannot be written is one message naming the fix.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DISK, DEFAULT_LOAD, DEFAULT_SERVER } from '../../rig/defaults.js';
import { ensurePreparedImage, preparedImageKey } from '../../rig/cycle/prepared-image.js';
import type { ServerRuntime } from '../../rig/runtime/types.js';
import type { LoadSettings, ScenarioSettings } from '../../rig/results/types.js';

const VERSION = 'mariadbd 10.11.19-MariaDB';
const settings = (load: Partial<LoadSettings> = {}): ScenarioSettings => ({
  name: 'a', runtime: 'local', server: DEFAULT_SERVER, disk: DEFAULT_DISK, load: { ...DEFAULT_LOAD, ...load }, expect: 'recovers',
});

/** The key as it was computed before load mixes and engines (format 2). */
function keyBeforeMixes(s: ScenarioSettings): string {
  const { engine: _engine, ...server } = s.server;
  const basis = {
    fs: s.disk.fs, sizeBytes: s.disk.sizeBytes, server, dataset: { tables: s.load.tables, rows: s.load.rows },
    runtime: s.runtime, image: s.image ?? null, serverVersion: VERSION, format: 2,
  };
  return createHash('sha256').update(JSON.stringify(basis)).digest('hex').slice(0, 16);
}

t.test('without prepared tables the key is the one earlier images were built under', async (t) => {
  t.equal(preparedImageKey(settings(), VERSION), keyBeforeMixes(settings()), 'no mix');
  for (const mix of [{ 'write-only': 1 }, { 'write-only': 4, churn: 1, alter: 1, bulk: 1 }]) {
    t.equal(preparedImageKey(settings({ mix }), VERSION), keyBeforeMixes(settings()), JSON.stringify(mix));
  }
});

t.test('prepared partitioned tables give keys of their own, by kind and connection count', async (t) => {
  const keys = [
    preparedImageKey(settings(), VERSION),
    preparedImageKey(settings({ mix: { 'write-only': 4, partitions: 1 } }), VERSION),
    preparedImageKey(settings({ mix: { 'write-only': 4, 'partition-truncate': 1 } }), VERSION),
    preparedImageKey(settings({ mix: { 'write-only': 4, partitions: 1, 'partition-truncate': 1 } }), VERSION),
    preparedImageKey(settings({ mix: { 'write-only': 4, partitions: 1 }, connections: 8 }), VERSION),
  ];
  t.equal(new Set(keys).size, keys.length, keys.join(' '));
  t.equal(preparedImageKey(settings({ mix: { partitions: 2, churn: 1 } }), VERSION), keys[1], 'the weights and other kinds do not matter');
});

t.test('RocksDB tables get a key of their own; InnoDB tables keep the one from before engines', async (t) => {
  const rocksdb = { ...settings(), server: { ...DEFAULT_SERVER, engine: 'rocksdb' as const } };
  t.not(preparedImageKey(rocksdb, VERSION), preparedImageKey(settings(), VERSION));
  t.equal(preparedImageKey(settings(), VERSION), keyBeforeMixes(settings()));
});

t.test('a missing image where the cache cannot be written: one message naming the folder and the fix', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-cache-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'a-file'), '');
  const cacheRoot = join(dir, 'a-file', 'prepared'); // under a file: nothing can be made there
  const runtime = {} as ServerRuntime; // never reached
  await t.rejects(
    ensurePreparedImage(settings(), runtime, VERSION, cacheRoot),
    new RegExp(`^the prepared image for these settings \\([0-9a-f]{16}\\) is not in ${cacheRoot}, and that folder cannot be written \\(ENOTDIR\\): set RIG_CACHE to a folder the rig can write$`),
  );
  t.same(readdirSync(dir), ['a-file'], 'nothing made');
});
