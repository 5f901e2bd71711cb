import { openSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ensureBuilt, rig } from '../../fixtures/rig-cli.js';
import { makeTempDir, writeMariadbDatadir } from '../../fixtures/pages/synthetic-datadir.js';

t.before(ensureBuilt);
const runScan = async (args: string[]) => {
  const run = await rig(['scan', ...args]);
  return { out: String(run.stdout), err: String(run.stderr), code: run.exitCode };
};

t.test('clean datadir: exit 0 and a summary line', async (t) => {
  const dir = makeTempDir(t, 'rig-scan-');
  writeMariadbDatadir(dir);
  const { out, code } = await runScan([dir]);
  t.equal(code, 0);
  t.match(out, /^0 invalid of 206 pages in 2 files \(\d+ ms\); doublewrite area pages 64-127, 128-191 hold copies/);
});

t.test('damaged page: exit 1, one line naming space, page, file and why; --json lists it', async (t) => {
  const dir = makeTempDir(t, 'rig-scan-');
  const { tIbd } = writeMariadbDatadir(dir);
  const fd = openSync(tIbd, 'r+');
  writeSync(fd, Buffer.from([1, 2, 3]), 0, 3, 3 * 16384 + 5000);
  closeSync(fd);
  const text = await runScan([dir]);
  t.equal(text.code, 1);
  t.match(text.out, /^space 5 page 3 \.\/db\/t\.ibd: checksum-mismatch \(full_crc32 stored/);
  const json = await runScan([dir, '--json']);
  t.equal(json.code, 1);
  const parsed = JSON.parse(json.out);
  t.match(parsed.invalid, [{ file: './db/t.ibd', space: 5, page: 3, reason: 'checksum-mismatch' }]);
  t.equal(parsed.doublewrite.length, 2);
  t.equal(parsed.pages, 206);
});

t.test('missing datadir: exit 2 and one line', async (t) => {
  const { err, code } = await runScan([join('/nonexistent', 'data')]);
  t.equal(code, 2);
  t.match(err, /^rig: \/nonexistent\/data is not a directory/);
});

t.test('a folder holding no tablespace: exit 2 and one line, not a clean scan of nothing', async (t) => {
  const dir = makeTempDir(t, 'rig-scan-');
  const { err, out, code } = await runScan([dir]);
  t.equal(code, 2);
  t.equal(out, '');
  t.equal(err, `rig: ${dir} holds no InnoDB tablespace (no ibdata1, undo or .ibd file): give the server's datadir`); // one line: execa drops the final newline
});

t.test('tablespace files that are all empty: exit 2, not a clean scan of no page', async (t) => {
  const dir = makeTempDir(t, 'rig-scan-');
  writeFileSync(join(dir, 'ibdata1'), '');
  const { err, out, code } = await runScan([dir]);
  t.equal(code, 2);
  t.equal(out, '');
  t.equal(err, `rig: ${dir} holds no InnoDB page (every tablespace file in it is empty): give the datadir of a server that has run`);
});
