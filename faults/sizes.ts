/**
 * Byte sizes as people write them, on the command line and in campaign files: 512, 4k, 16K, 64M,
 * 1G, 16KiB. Units are binary (k = 1024); whole numbers only.
 */
import { accept, oneOf, reject, show, type Checked } from './checked.js';

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** Bytes for a size, or null when the value is not one. */
export function readSize(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const match = /^\s*(\d+)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(value);
  if (!match) return null;
  const bytes = Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** A size of at least `min` bytes; `example` shows how to write one. */
export function checkSize(value: unknown, min = 1, example = '512M'): Checked<number> {
  const bytes = readSize(value);
  if (bytes === null) return reject(`${show(value)} is not a size; write it like ${example}`);
  if (bytes < min) return reject(`${showSize(bytes)} is too small; use ${showSize(min)} or more, e.g. ${example}`);
  return accept(bytes);
}

/** 65536 -> "64K", 67108864 -> "64M", 1000 -> "1000": the shortest form mariadbd also accepts. */
export function formatSize(bytes: number): string {
  for (const unit of ['T', 'G', 'M', 'K'] as const) {
    const factor = UNITS[unit.toLowerCase()]!;
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${unit}`;
  }
  return String(bytes);
}

/** A size as a person would write it: 4k, 16k, 64M. */
export function showSize(bytes: number): string {
  const text = formatSize(bytes);
  return text.endsWith('K') ? `${text.slice(0, -1)}k` : text;
}

export const ATOMIC_UNITS = [512, 4096, 8192, 16384, 32768, 65536];

/** The device's atomic write unit: one of 512, 4k, 8k, 16k, 32k, 64k. */
export function checkAtomicUnit(value: unknown): Checked<number> {
  const bytes = readSize(value);
  const use = `use ${oneOf(ATOMIC_UNITS.map(showSize))}`;
  if (bytes === null) return reject(`${show(value)} is not a size; ${use}`);
  if (bytes === 0 || (bytes & (bytes - 1)) !== 0) return reject(`${showSize(bytes)} is not a power of two; ${use}`);
  if (!ATOMIC_UNITS.includes(bytes)) return reject(`${showSize(bytes)} is outside what the disk models; ${use}`);
  return accept(bytes);
}
