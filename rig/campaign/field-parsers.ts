/**
 * Parsers for the campaign fields zod cannot check by type alone (sizes, atomic units, triggers,
 * on/off). Each returns the value or a one-line reason that ends with the fix.
 */
import type { TriggerSpec } from '../../faults/trigger.js';
import { ATOMIC_UNITS, readSize, showSize } from '../../faults/sizes.js';
import { PAGE_SIZES } from '../runtime/server-args.js';
import { parseTrigger } from './trigger.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (message: string): Parsed<never> => ({ ok: false, message });

export { ATOMIC_UNITS } from '../../faults/sizes.js';
export { PAGE_SIZES } from '../runtime/server-args.js';

/** `'12k'` for a string, `12288` for a number: the value as the file wrote it. */
export function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value) ?? String(value);
}

/** ['a', 'b', 'c'] -> "a, b or c" */
export function oneOf(values: readonly string[]): string {
  return values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : values.join('');
}

function choices(values: number[]): string {
  return oneOf(values.map(showSize));
}

export function parseAtomicUnit(value: unknown): Parsed<number> {
  const bytes = readSize(value);
  const use = `use ${choices(ATOMIC_UNITS)}`;
  if (bytes === null) return fail(`${show(value)} is not a size; ${use}`);
  if (bytes === 0 || (bytes & (bytes - 1)) !== 0) return fail(`${showSize(bytes)} is not a power of two; ${use}`);
  if (!ATOMIC_UNITS.includes(bytes)) return fail(`${showSize(bytes)} is outside what the disk models; ${use}`);
  return ok(bytes);
}

export function parsePageSize(value: unknown): Parsed<number> {
  const bytes = readSize(value);
  const use = `use ${choices(PAGE_SIZES)}`;
  if (bytes === null) return fail(`${show(value)} is not a size; ${use}`);
  if (!PAGE_SIZES.includes(bytes)) return fail(`${showSize(bytes)} is not an innodb_page_size the server supports; ${use}`);
  return ok(bytes);
}

/** A size of at least `min` bytes (1 when not given). */
export function parseBytes(value: unknown, example: string, min = 1): Parsed<number> {
  const bytes = readSize(value);
  if (bytes === null) return fail(`${show(value)} is not a size; write it like ${example}`);
  if (bytes < min) return fail(`${showSize(bytes)} is too small; use ${showSize(min)} or more, e.g. ${example}`);
  return ok(bytes);
}

export function parseOnOff(value: unknown): Parsed<boolean> {
  if (typeof value === 'boolean') return ok(value);
  if (value === 'on' || value === 'off') return ok(value === 'on');
  return fail(`${show(value)} is not on or off; use on or off`);
}

export function parseTriggerField(value: unknown): Parsed<TriggerSpec> {
  if (typeof value !== 'string') return fail(`${show(value)} is not a trigger; use 'armed 16', 'after-writes N' or 'at-time 5s'`);
  const trigger = parseTrigger(value);
  return typeof trigger === 'string' ? fail(trigger) : ok(trigger);
}
