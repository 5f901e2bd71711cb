/**
 * MySQL's survey of a file's first pages for its space id (rig/cycle/mysql-space-survey.ts), on
 * the first six pages of an .ibd that MySQL 9.7.4 wrote (sbtest1.ibd, space 4: FSP header, change
 * buffer bitmap, inode, SDI root, two index pages).
 */
import t, { type Test } from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { surveySpaceId } from '../../rig/cycle/mysql-space-survey.js';
import { verifyPage } from '../../rig/pages/index.js';
import { stampPage, writeU32 } from '../fixtures/pages/fixture-pages.js';
import { fixtureFile } from '../fixtures/fixture-files.js';

const PS = 16384;
const real = readFileSync(fixtureFile('pages', 'mysql-9.7-sbtest1-p0-5.ibd'));
const pageOf = (file: Buffer, n: number) => file.subarray(n * PS, (n + 1) * PS);

function writeFile(t: Test, file: Buffer): string {
  const path = join(t.testdir({}), 't.ibd');
  writeFileSync(path, file);
  return path;
}

t.test('the fixture is MySQL crc32 pages of space 4, every one valid', async (t) => {
  for (let n = 0; n < 6; n++) {
    t.ok(verifyPage(pageOf(real, n), { format: { fullCrc32: false, pageSize: PS, zipSize: 0 }, pageNo: n, spaceId: 4 }).valid, `page ${n}`);
  }
});

t.test('a torn page 0: the other pages name space 4, which the survey chooses', async (t) => {
  const file = Buffer.from(real);
  pageOf(file, 0).fill(0xa5, 12288, 16384 - 8); // the last 4 KiB unit of the new page never landed
  t.same(surveySpaceId(writeFile(t, file), PS), { analyzed: 6, valid: 5, chosen: 4, matched: 5 });
});

t.test('up to three valid pages may name another space; four may not', async (t) => {
  const file = Buffer.from(real);
  const foreign = (n: number) => {
    const page = pageOf(file, n);
    writeU32(page, 34, 9);
    stampPage(page, 'crc32');
  };
  foreign(1);
  foreign(2);
  t.same(surveySpaceId(writeFile(t, file), PS), { analyzed: 6, valid: 6, chosen: 4, matched: 4 });
  foreign(3);
  t.same(surveySpaceId(writeFile(t, file), PS), { analyzed: 6, valid: 6, chosen: 4, matched: 3 }, '3 of 6 still: lowest id first');
  foreign(4);
  t.same(surveySpaceId(writeFile(t, file), PS), { analyzed: 6, valid: 6, chosen: 9, matched: 4 }, 'the space of 4 pages, 2 missed');
});

t.test('no page verifies, or every page is zeros: no space id', async (t) => {
  const torn = Buffer.from(real);
  for (let n = 0; n < 6; n++) pageOf(torn, n).fill(0x5a, 100, 200);
  t.same(surveySpaceId(writeFile(t, torn), PS), { analyzed: 6, valid: 0, chosen: null, matched: 0 });
  t.same(surveySpaceId(writeFile(t, Buffer.alloc(3 * PS)), PS), { analyzed: 3, valid: 0, chosen: null, matched: 0 });
});
