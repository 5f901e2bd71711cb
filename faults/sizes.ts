/** Byte sizes as users write them: 512, 4k, 16K, 512M, 1G, 1.5G. */
import { badInput } from '../rig/errors.js';

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

export function parseSize(text: string | number, what: string): number {
  if (typeof text === 'number' && Number.isInteger(text) && text > 0) return text;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(String(text));
  const bytes = m ? Math.round(Number(m[1]) * (UNITS[m[2]!.toLowerCase()] ?? 1)) : NaN;
  if (!Number.isFinite(bytes) || bytes <= 0) {
    throw badInput(`${what}: '${text}' is not a size; write it like 512, 4k, 16k, 512M or 1G`);
  }
  return bytes;
}

export function formatSize(bytes: number): string {
  for (const [suffix, n] of [['G', 1024 ** 3], ['M', 1024 ** 2], ['k', 1024]] as const) {
    if (bytes >= n && bytes % n === 0) return `${bytes / n}${suffix}`;
  }
  return String(bytes);
}

export const ATOMIC_UNITS = [512, 4096, 8192, 16384, 32768, 65536] as const;

/** The device's atomic write unit: one of 512, 4k, 8k, 16k, 32k, 64k. */
export function parseAtomicUnit(text: string | number): number {
  const fix = 'use 512, 4k, 8k, 16k, 32k or 64k';
  let bytes: number;
  try {
    bytes = parseSize(text, '--atomic');
  } catch {
    throw badInput(`--atomic: '${text}' is not an atomic write size; ${fix}`);
  }
  if (!(ATOMIC_UNITS as readonly number[]).includes(bytes)) {
    throw badInput(`--atomic: '${text}' is not an atomic write size the disk models; ${fix}`);
  }
  return bytes;
}
