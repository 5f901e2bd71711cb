/**
 * What a crash image must hold after a write program (faults/selftest/write-program.ts): every
 * durable write in full, then the plan's landed units of the pending writes in order; and each
 * unit a pending write covers all new or all old wherever no later write overlaps it.
 */
import { unitSpan, type CrashPlan } from '../crash-plan.js';
import type { ProgramWrite } from './write-program.js';

const SECTOR = 512;

export function expectedImage(size: number, durable: ProgramWrite[], pending: ProgramWrite[], plan: CrashPlan): Buffer {
  const img = Buffer.alloc(size);
  for (const w of durable) img.fill(w.fill, w.offset, w.offset + w.length);
  pending.forEach((w, i) => {
    const { first } = unitSpan(w.offset, w.length, plan.atomicUnit);
    for (const u of plan.writes[i]!.unitsLanded) {
      const from = Math.max(w.offset, (first + u) * plan.atomicUnit);
      const to = Math.min(w.offset + w.length, (first + u + 1) * plan.atomicUnit);
      img.fill(w.fill, from, to);
    }
  });
  return img;
}

/** null, or which pending write's unit is part new, part old. */
export function unitsWholeOrAbsent(crash: Buffer, pending: ProgramWrite[], unit: number): string | null {
  for (const [i, w] of pending.entries()) {
    const later = pending.slice(i + 1);
    const { first, count } = unitSpan(w.offset, w.length, unit);
    for (let u = 0; u < count; u++) {
      const from = Math.max(w.offset, (first + u) * unit);
      const to = Math.min(w.offset + w.length, (first + u + 1) * unit);
      const seen = new Set<boolean>();
      for (let s = from; s < to; s += SECTOR) {
        if (later.some((l) => s >= l.offset && s < l.offset + l.length)) continue;
        seen.add(crash[s] === w.fill && crash.subarray(s, s + SECTOR).every((b) => b === w.fill));
      }
      if (seen.size > 1) return `write ${w.index} unit ${u} is part new, part old`;
    }
  }
  return null;
}
