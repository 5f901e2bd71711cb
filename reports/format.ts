/** Numbers and names as a reviewer reads them. */
import type { Expectation, Verdict } from '../rig/results/types.js';

/** Space on disk, to a tenth of its unit: 60.4 MiB, 2.5 GiB. */
export function formatStorage(bytes: number): string {
  const units: [number, string][] = [[1024 ** 3, 'GiB'], [1024 ** 2, 'MiB'], [1024, 'KiB']];
  const [size, unit] = units.find(([n]) => bytes >= n) ?? [1, 'B'];
  return size === 1 ? `${bytes} B` : `${(bytes / size).toFixed(1)} ${unit}`;
}

export function formatBytes(bytes: number): string {
  const GiB = 1024 * 1024 * 1024;
  if (bytes >= GiB) return bytes % GiB === 0 ? `${bytes / GiB} GiB` : `${(bytes / GiB).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

/** Short unit name for grid headers: 4k, 16k, 512. */
export function formatUnit(bytes: number): string {
  return bytes >= 1024 ? `${bytes / 1024}k` : String(bytes);
}

/** 850 ms, 12.5 s, 2 min 5 s, 4 h 5 min 52 s: rounded once, in the unit shown, so a value never
 * shows its unit's whole (999.6 ms is 1.0 s, 119.6 s is 2 min 0 s). */
export function formatMs(ms: number): string {
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  if (Math.round(ms / 100) < 600) return `${(ms / 1000).toFixed(1)} s`;
  const total = Math.round(ms / 1000);
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  return hours ? `${hours} h ${minutes} min ${seconds} s` : `${minutes} min ${seconds} s`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatPercent(part: number, whole: number): string {
  if (whole === 0) return '0%';
  const pct = (100 * part) / whole;
  if (pct > 0 && pct < 0.1) return '<0.1%';
  // never 100% for less than all: a negative control that tore 999 times in 1000 did not always
  if (pct < 100 && pct >= 99.5) return pct >= 99.95 ? '>99.9%' : `${pct.toFixed(1)}%`;
  return `${pct.toFixed(pct < 10 ? 1 : 0)}%`;
}

export const VERDICT_LABELS: Record<Verdict, string> = {
  'no-torn': 'no torn page',
  'restored': 'restored',
  'detected': 'detected',
  'refused': 'refused',
  'wal-tail-refused': 'refused on a torn WAL tail',
  'crashed': 'CRASHED',
  'hung': 'HUNG',
  'shutdown-crash': 'SHUTDOWN CRASH',
  'reported-corruption': 'REPORTED CORRUPTION',
  'silent-corruption': 'SILENT CORRUPTION',
  'lost-commit': 'LOST COMMIT',
  'rig-error': 'rig error',
};

/** Worst first: findings about the data, then about the server process, then the rest. */
export const VERDICT_ORDER: Verdict[] = [
  'silent-corruption',
  'lost-commit',
  'reported-corruption',
  'crashed',
  'hung',
  'shutdown-crash',
  'rig-error',
  'refused',
  'wal-tail-refused',
  'detected',
  'restored',
  'no-torn',
];

export const EXPECTATION_TEXT: Record<Expectation, string> = {
  'recovers': 'recovers: every torn page restored, no commit lost',
  'never-torn': 'never torn: no page may tear in the crash image',
  'torn-reproduced': 'torn reproduced: the negative control must tear pages',
  'detects': 'detects: every torn page restored by redo or named by a server that refuses to start, never silent',
  'commits-kept': 'commits kept: every acknowledged commit present, or a refusal on a torn WAL tail the server names',
};

export function formatIso(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}
