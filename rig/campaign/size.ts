/**
 * Byte sizes as people write them in campaign files: 512, 4k, 16K, 64M, 1G, 16KiB.
 * Units are binary (k = 1024). formatSize gives the shortest form mariadbd also accepts.
 */
const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** Bytes for a size, or null when the text is not a size. */
export function parseSize(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const match = /^\s*(\d+)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(value);
  if (!match) return null;
  const bytes = Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** 65536 -> "64K", 67108864 -> "64M", 1000 -> "1000". */
export function formatSize(bytes: number): string {
  for (const unit of ['T', 'G', 'M', 'K'] as const) {
    const factor = UNITS[unit.toLowerCase()]!;
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${unit}`;
  }
  return String(bytes);
}

/** A size as a person would write it in a campaign file: 4k, 16k, 64M. */
export function showSize(bytes: number): string {
  const text = formatSize(bytes);
  return text.endsWith('K') ? `${text.slice(0, -1)}k` : text;
}
