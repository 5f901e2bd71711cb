/**
 * A scenario's innodb_doublewrite as one word: on, off, fast (MariaDB 11.x), detect-only and
 * detect-and-recover (MySQL 8.0.30+). Saved results keep on/off as booleans.
 */
export type DoublewriteSetting = boolean | 'fast' | 'detect-only' | 'detect-and-recover';

export type DoublewriteMode = 'on' | 'fast' | 'detect-and-recover' | 'detect-only' | 'off';

export const DOUBLEWRITE_MODES: readonly DoublewriteMode[] = ['on', 'fast', 'detect-and-recover', 'detect-only', 'off'];

export function doublewriteMode(value: DoublewriteSetting): DoublewriteMode {
  if (typeof value === 'string') return value;
  return value ? 'on' : 'off';
}

/**
 * Whether the server writes a whole copy of each page before its home write, so recovery can
 * restore a torn page: on, fast and detect-and-recover (MySQL's name for on). DETECT_ONLY writes
 * only each page's id and LSN: it can name a torn page, never restore it.
 */
export function writesPageCopies(value: DoublewriteSetting): boolean {
  return value !== false && value !== 'detect-only';
}
