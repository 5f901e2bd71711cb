/**
 * The verifier against the real thing: a datadir written by the host's mariadbd, damaged the way a
 * power cut damages pages (a torn page holding one 4 KiB unit of an older version, flipped bytes,
 * a zeroed page), judged page for page by the rig and by innochecksum. innochecksum also flags the
 * doublewrite slots of ibdata1 that hold copies (their headers name other pages): those are
 * explained by readDoublewrite, not counted. innochecksum accepts only crc32 on legacy pages, so
 * the innodb fold checksum is checked against the server itself, which accepts it on read.
 */
import { execa } from 'execa';
import { cp, readFile, open } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { closeQuietly, connectToServer } from '../../rig/runtime/connect.js';
import { crc32PageChecksum } from '../../rig/pages/checksums.js';
import { readDoublewrite } from '../../rig/pages/read-doublewrite.js';
import { scanDatadir } from '../../rig/pages/scan-datadir.js';
import { listTablespaceFiles } from '../../rig/pages/tablespace-files.js';
import { isAllZero } from '../../rig/pages/page-format.js';
import { stampPage } from '../fixtures/pages/fixture-pages.js';
import { initializedSpec, runSql, startServer, testSettings } from '../fixtures/local-server.js';

const PS = 16384;

async function patch(path: string, at: number, bytes: Uint8Array): Promise<void> {
  const file = await open(path, 'r+');
  await file.write(bytes, 0, bytes.length, at);
  await file.close();
}

/** innochecksum's failing pages per file (./db/t.ibd style), all pages checked. */
async function innochecksumFailures(datadir: string): Promise<Map<string, number[]>> {
  const failures = new Map<string, number[]>();
  for (const f of await listTablespaceFiles(datadir)) {
    const { stderr } = await execa('innochecksum', ['-a', '1000000', f.path], { reject: false });
    const pages = [...stderr.matchAll(/Fail: page::(\d+) invalid/g)].map((m) => Number(m[1]));
    if (pages.length) failures.set(f.rel, [...new Set(pages)].sort((a, b) => a - b));
  }
  return failures;
}

/** Builds a datadir: db.t (full_crc32, updated after an old copy was taken), db.legacy (crc32). */
async function prepare(t: Tap): Promise<{ data: string; root: string; oldT: Buffer }> {
  const spec = await initializedSpec(t);
  const server = await startServer(t, spec);
  await runSql(server, [
    'CREATE DATABASE db',
    'USE db',
    'CREATE TABLE db.t (id INT PRIMARY KEY, k INT, c CHAR(120), KEY(k)) ENGINE=InnoDB',
    "INSERT INTO db.t SELECT seq, seq % 1000, REPEAT('x', 100) FROM seq_1_to_4000",
    'SET GLOBAL innodb_checksum_algorithm = crc32',
    'CREATE TABLE db.legacy (id INT PRIMARY KEY, c CHAR(120)) ENGINE=InnoDB',
    "INSERT INTO db.legacy SELECT seq, REPEAT('y', 100) FROM seq_1_to_3000",
  ]);
  const connection = await connectToServer({ socketPath: server.socketPath });
  await connection.query('FLUSH TABLES db.t FOR EXPORT');
  const oldT = await readFile(join(spec.datadir, 'db', 't.ibd'));
  await connection.query('UNLOCK TABLES');
  await closeQuietly(connection);
  await runSql(server, ["UPDATE db.t SET c = REPEAT('z', 100), k = k + 1"]);
  await server.stop();
  return { data: spec.datadir, root: join(spec.datadir, '..'), oldT };
}
type Tap = { teardown(fn: () => unknown): void };

t.test('rig and innochecksum agree page for page on real tablespaces', async (t) => {
  const { data, root, oldT } = await prepare(t);

  const clean = await scanDatadir(data);
  t.same(clean.invalid, [], 'a cleanly shut down datadir has no invalid page');
  const copies = await readDoublewrite(data);
  const slots = new Set(copies.map((c) => c.source.slot));
  const cleanIc = await innochecksumFailures(data);
  t.same([...cleanIc.keys()].filter((f) => f !== './ibdata1'), [], 'innochecksum too, outside ibdata1');
  t.ok((cleanIc.get('./ibdata1') ?? []).every((p) => slots.has(p)), 'every ibdata1 page innochecksum flags is a doublewrite copy');
  t.ok(copies.every((c) => c.valid), `all ${copies.length} doublewrite copies are whole`);

  const damaged = join(root, 'damaged');
  await cp(data, damaged, { recursive: true });
  const tIbd = join(damaged, 'db', 't.ibd');
  const newT = await readFile(tIbd);
  const torn = findTornCandidate(oldT, newT);
  t.ok(torn, 'some page changed between the old copy and the final file');
  const { page: tornPage, unit } = torn!;
  await patch(tIbd, tornPage * PS + unit * 4096, oldT.subarray(tornPage * PS + unit * 4096, tornPage * PS + (unit + 1) * 4096));
  const flipPage = tornPage === 4 ? 5 : 4;
  await patch(tIbd, flipPage * PS + 7000, Buffer.from([0xde, 0xad, 0xbe]));
  const zeroPage = [3, 4, 5, 6].find((p) => p !== tornPage && p !== flipPage)!;
  await patch(tIbd, zeroPage * PS, Buffer.alloc(PS));
  const legacy = join(damaged, 'db', 'legacy.ibd');
  await patch(legacy, 3 * PS + 9000, Buffer.from([0x01]));
  const legacyBytes = await readFile(legacy);
  await patch(legacy, 4 * PS + 8192, legacyBytes.subarray(5 * PS + 8192, 5 * PS + 12288)); // a unit from another page
  await patch(join(damaged, 'ibdata1'), 7 * PS + 3000, Buffer.from([0x42, 0x42]));

  const ours = await scanDatadir(damaged);
  const theirs = await innochecksumFailures(damaged);
  const oursByFile = new Map<string, number[]>();
  for (const p of ours.invalid) oursByFile.set(p.file, [...(oursByFile.get(p.file) ?? []), p.page]);
  const theirsLive = new Map([...theirs].map(([f, pages]) => [f, f === './ibdata1' ? pages.filter((p) => !slots.has(p)) : pages]));
  t.same(Object.fromEntries(oursByFile), Object.fromEntries([...theirsLive].filter(([, p]) => p.length)), 'same pages, file by file');
  t.same(oursByFile.get('./db/t.ibd'), [Math.min(tornPage, flipPage), Math.max(tornPage, flipPage)], 'torn and flipped pages found, zeroed page valid');
  t.same(oursByFile.get('./db/legacy.ibd'), [3, 4]);
  t.same(oursByFile.get('./ibdata1'), [7]);
  t.comment(`torn page ${tornPage} (unit ${unit}): ${ours.invalid.find((p) => p.page === tornPage && p.file === './db/t.ibd')?.detail}`);
});

/** A page (>= 3) whose 4 KiB unit differs between the old and the new file: restoring it tears the page. */
function findTornCandidate(oldT: Buffer, newT: Buffer): { page: number; unit: number } | null {
  for (let page = 3; (page + 1) * PS <= Math.min(oldT.length, newT.length); page++) {
    const at = page * PS;
    if (isAllZero(newT.subarray(at, at + PS)) || isAllZero(oldT.subarray(at, at + PS))) continue;
    for (const unit of [1, 2, 3, 0]) {
      const from = at + unit * 4096;
      if (!oldT.subarray(from, from + 4096).equals(newT.subarray(from, from + 4096))) return { page, unit };
    }
  }
  return null;
}

t.test('pages stamped with the legacy innodb fold checksum pass the rig and the real server', async (t) => {
  const { data, root } = await prepare(t);
  const legacy = join(data, 'db', 'legacy.ibd');
  const bytes = await readFile(legacy);
  let stamped = 0;
  for (let at = 0; at < bytes.length; at += PS) {
    const page = bytes.subarray(at, at + PS);
    if (isAllZero(page)) continue;
    t.equal(crc32PageChecksum(page), page.readUInt32BE(0), `page ${at / PS} came with a crc32 checksum`);
    stampPage(page, 'innodb');
    stamped++;
  }
  await patch(legacy, 0, bytes);
  t.same((await scanDatadir(data)).invalid, [], `the rig accepts ${stamped} re-stamped pages`);

  const server = await startServer(t, { datadir: data, runDir: join(root, 'run2'), settings: testSettings });
  const [checked, counted] = await runSql(server, [
    'CHECK TABLE db.legacy EXTENDED',
    "SELECT COUNT(*) AS n, SUM(c = REPEAT('y', 100)) AS y FROM db.legacy",
  ]);
  t.same(checked, [{ Table: 'db.legacy', Op: 'check', Msg_type: 'status', Msg_text: 'OK' }]);
  t.same(counted, [{ n: 3000, y: '3000' }]);
  const log = await server.errorLog();
  await server.stop();
  t.notMatch(log, /corrupt|checksum mismatch|\[ERROR\]/i, 'the server read every page without complaint');
});
