import t from 'tap';
import { readFileSync } from 'node:fs';
import { classifyErrorLog, excerptErrorLog } from '../../rig/logs/index.js';
import { fixtureFile } from '../fixtures/fixture-files.js';

const fixtures = fixtureFile('mariadb-10.11-error-logs') + '/';
const read = (file: string) => readFileSync(fixtures + file, 'utf8');
/** The log line numbers an excerpt shows. */
const shownLines = (excerpt: string) =>
  excerpt.split('\n').flatMap((l) => (/^ *(\d+): /.exec(l)?.[1] ? [Number(/^ *(\d+): /.exec(l)?.[1])] : []));

t.test('a long refusal is capped, keeps the abort and the first torn page, and skips the advice lines', async (t) => {
  const text = read('dw-off-16k-ext4-misaligned-refused-2.log');
  const events = classifyErrorLog(text);
  const excerpt = excerptErrorLog(text, events, 25);
  const shown = shownLines(excerpt);
  t.ok(shown.length <= 25, `${shown.length} lines shown`);
  for (const line of [14, 16, 58, 60, 61]) t.ok(shown.includes(line), `line ${line} shown`);
  t.notMatch(excerpt, /innodb_force_recovery=1 to ignore/);
  const missing = events.filter((e) => !shown.includes(e.line)).length;
  t.ok(missing > 0);
  t.match(excerpt, new RegExp(`\\(${missing} more classified lines not shown\\)$`));
  t.match(excerpt, /\n\.\.\.\n/, 'gaps are marked');
  const lines = text.split('\n');
  for (const n of shown) t.ok(excerpt.includes(`${n}: ${lines[n - 1]}`), `line ${n} quoted whole`);
});

t.test('with room for everything, every classified line and its neighbours are shown in log order', async (t) => {
  const text = read('dw-on-4k-restored-silent.log');
  const events = classifyErrorLog(text);
  const excerpt = excerptErrorLog(text, events, 100);
  const expected = new Set<number>();
  for (const e of events) for (const n of [e.line - 1, e.line, e.line + 1]) expected.add(n);
  t.same(shownLines(excerpt), [...expected].sort((a, b) => a - b));
  t.notMatch(excerpt, /not shown/);
  t.match(excerpt, /ready for connections/);
  t.match(excerpt, /\n\.\.\.$/, 'lines after the last shown one are marked');
});

t.test('context 0 shows exactly the classified lines; none means an empty excerpt', async (t) => {
  const text = read('dw-off-4k-refused-ibdata1.log');
  const events = classifyErrorLog(text);
  t.same(shownLines(excerptErrorLog(text, events, 100, 0)), events.map((e) => e.line));
  t.equal(excerptErrorLog(text, [], 10), '');
});

t.test('edges: first and last lines, numbering width, one line left out', async (t) => {
  const text = ['[ERROR] first', ...Array.from({ length: 9 }, (_, i) => `[Note] filler ${i}`), '[ERROR] last'].join('\n');
  const events = classifyErrorLog(text);
  t.equal(events.length, 2);
  t.equal(excerptErrorLog(text, events, 10, 0), ' 1: [ERROR] first\n...\n11: [ERROR] last');
  t.equal(excerptErrorLog(text, events, 1, 0), ' 1: [ERROR] first\n...\n(1 more classified line not shown)');
});

t.test("MySQL's page dumps next to a classified line are clipped, not shown whole", async (t) => {
  const text = readFileSync(fixtureFile('mysql-9.7-error-logs', 'dw-off-4k-refused-page0.log'), 'utf8');
  const excerpt = excerptErrorLog(text, classifyErrorLog(text));
  t.ok(excerpt.split('\n').every((line) => line.length < 500), 'no line longer than the clip');
  t.match(excerpt, /len 16384; hex [0-9a-f]+\.\.\. \(\d+ characters\)/);
  t.match(excerpt, /could not be found in the doublewrite buffer/);
});
