/** Durations and shares as the report prints them: rounded once, never to a whole they are not. */
import t from 'tap';
import { formatMs, formatPercent } from '../../reports/format.js';

t.test('durations', async (t) => {
  const cases: [number, string][] = [
    [850, '850 ms'], [999.4, '999 ms'], [999.6, '1.0 s'], [12_500, '12.5 s'], [59_949, '59.9 s'],
    [59_960, '1 min 0 s'], [119_600, '2 min 0 s'], [125_000, '2 min 5 s'], [3_599_600, '1 h 0 min 0 s'],
    [14_752_000, '4 h 5 min 52 s'],
  ];
  for (const [ms, shown] of cases) t.equal(formatMs(ms), shown, `${ms} ms`);
});

t.test('shares', async (t) => {
  const cases: [number, number, string][] = [
    [0, 0, '0%'], [0, 5, '0.0%'], [1, 2000, '<0.1%'], [1, 3, '33%'], [1, 20, '5.0%'],
    [199, 200, '99.5%'], [999, 1000, '99.9%'], [9999, 10_000, '>99.9%'], [1000, 1000, '100%'],
  ];
  for (const [part, whole, shown] of cases) t.equal(formatPercent(part, whole), shown, `${part} of ${whole}`);
});
