/**
 * The reason names the pages the server called corrupt that the cut did not tear, so torn pages
 * do not take the blame for them. Read from a recorded MariaDB 11.8.9 refusal ("Unable to apply log
 * to corrupted page N in file F" for .//undo002 pages 2 and 36, sbtest2.ibd pages 15, 41, 53, 153).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { corruptUntorn } from '../../rig/cycle/stages/judge.js';
import { classifyErrorLog, summarizeLog } from '../../rig/logs/index.js';
import type { TornPage } from '../../rig/results/types.js';
import { tornPage } from '../fixtures/cycle-record.js';
import { fixtureFile } from '../fixtures/fixture-files.js';

const log = readFileSync(fixtureFile('mariadb-11.8-error-logs', 'dw-off-4k-refused-ibd.log'), 'utf8');
const corrupt = summarizeLog(classifyErrorLog(log)).corruptPages;
const torn = (file: string, space: number, page: number): TornPage => ({ ...tornPage(page), file, space });
const everyNamed = [torn('./undo002', 2, 2), torn('./undo002', 2, 36), ...[15, 41, 53, 153].map((p) => torn('./sbtest/sbtest2.ibd', 6, p))];

t.test('every page the server named corrupt is torn: nothing to add', async (t) => {
  t.equal(corrupt.length, 6, 'the log names six pages');
  t.same(corruptUntorn(everyNamed, corrupt), []);
});

t.test('a named page the cut did not tear is named in the reason, by file and page', async (t) => {
  const without = everyNamed.filter((p) => !(p.file === './sbtest/sbtest2.ibd' && (p.page === 41 || p.page === 153)));
  t.same(corruptUntorn(without, corrupt), ['the server named ./sbtest/sbtest2.ibd page 41, ./sbtest/sbtest2.ibd page 153 corrupt, which the cut did not tear (no torn write explains them)']);
  t.same(corruptUntorn(everyNamed.slice(1), corrupt), ['the server named ./undo002 page 2 corrupt, which the cut did not tear (no torn write explains it)'], 'the undo file as 11.8 writes it (.//undo002) is the extent map\'s ./undo002');
});

t.test('a line naming the page by space id matches the torn page by its space', async (t) => {
  const byId = [{ space: 6, page: 15 }, { space: 7, page: 3 }];
  t.same(corruptUntorn([torn('./sbtest/sbtest2.ibd', 6, 15)], byId), ['the server named space 7 page 3 corrupt, which the cut did not tear (no torn write explains it)']);
  t.same(corruptUntorn([], [{ page: 4 }, { file: './x.ibd' }]), [], 'a line that names no page, or no file and no space, is not matched');
});
