/** A scenario's innodb_doublewrite as one word: on, fast (MariaDB 11.x) or off. */
export type DoublewriteMode = 'on' | 'fast' | 'off';

export const DOUBLEWRITE_MODES: readonly DoublewriteMode[] = ['on', 'fast', 'off'];

export function doublewriteMode(value: boolean | 'fast'): DoublewriteMode {
  return value === 'fast' ? 'fast' : value ? 'on' : 'off';
}
