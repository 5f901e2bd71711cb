/**
 * Checks for the campaign fields zod cannot check by type alone (sizes, atomic units, page sizes,
 * triggers, on/off): each gives the value or a one-line problem that ends with the fix. Sizes,
 * atomic units and triggers are the disk's own syntax (faults/), so campaign files and the
 * command line say the same thing about the same mistake.
 */
import { accept, oneOf, reject, show, type Checked } from '../../faults/checked.js';
import { readSize, showSize } from '../../faults/sizes.js';
import { checkTrigger } from '../../faults/trigger.js';
import type { DoublewriteSetting } from '../results/doublewrite-mode.js';
import { PAGE_SIZES } from '../results/types.js';

export function checkPageSize(value: unknown): Checked<number> {
  const bytes = readSize(value);
  const use = `use ${oneOf(PAGE_SIZES.map(showSize))}`;
  if (bytes === null) return reject(`${show(value)} is not a size; ${use}`);
  if (!PAGE_SIZES.includes(bytes)) return reject(`${showSize(bytes)} is not an innodb_page_size the server supports; ${use}`);
  return accept(bytes);
}

export function checkOnOff(value: unknown): Checked<boolean> {
  if (typeof value === 'boolean') return accept(value);
  if (value === 'on' || value === 'off') return accept(value === 'on');
  return reject(`${show(value)} is not on or off; use on or off`);
}

/**
 * innodb_doublewrite: on, off, fast (MariaDB 11.x), detect-only or detect-and-recover (MySQL
 * 8.0.30+); the server in use is checked before the run.
 */
export function checkDoublewrite(value: unknown): Checked<DoublewriteSetting> {
  if (value === 'fast' || value === 'detect-only' || value === 'detect-and-recover') return accept(value);
  const onOff = checkOnOff(value);
  return onOff.ok
    ? onOff
    : reject(`${show(value)} is not on, off, fast, detect-only or detect-and-recover; use one of those (fast: MariaDB 11.x; detect-*: MySQL 8.0.30+)`);
}

/** A campaign's trigger: any the disk has but `manual`, which waits for a person. */
export const checkCampaignTrigger = (value: unknown) => checkTrigger(value, false);
