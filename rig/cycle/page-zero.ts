/**
 * Page 0 of every tablespace file that writes pending at the cut touched, from the page truth:
 * what the lifecycle loads aim at (a new, truncated, rebuilt or growing tablespace rewrites it).
 */
import type { PageZeroWrite } from '../results/types.js';
import type { PageTruth } from './page-truth.js';

export function pageZeroWrites(truth: readonly PageTruth[]): PageZeroWrite[] {
  return truth
    .filter((p): p is PageTruth & { class: PageZeroWrite['class'] } => p.page === 0 && p.class !== 'doublewrite-area')
    .map((p) => ({ file: p.file, writes: p.writeSeqs.length, class: p.class }))
    .sort((a, b) => a.file.localeCompare(b.file));
}
