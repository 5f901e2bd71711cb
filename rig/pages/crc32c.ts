/**
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as InnoDB's crc32 and full_crc32
 * checksums use it. Node 20 has no CRC-32C, so this is a slicing-by-8 table implementation:
 * eight 256-entry tables let the loop consume 8 bytes per step (~1 GB/s in V8 here).
 */
const POLY = 0x82f63b78;

function buildTables(): Uint32Array[] {
  const tables = Array.from({ length: 8 }, () => new Uint32Array(256));
  const t0 = tables[0]!;
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    t0[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    let c = t0[n]!;
    for (let t = 1; t < 8; t++) {
      c = (c >>> 8) ^ t0[c & 0xff]!;
      tables[t]![n] = c >>> 0;
    }
  }
  return tables;
}

const [T0, T1, T2, T3, T4, T5, T6, T7] = buildTables() as [
  Uint32Array, Uint32Array, Uint32Array, Uint32Array,
  Uint32Array, Uint32Array, Uint32Array, Uint32Array,
];

/** CRC-32C of buf[start, end); pass a previous result as `seed` to continue a running CRC. */
export function crc32c(buf: Uint8Array, start = 0, end = buf.length, seed = 0): number {
  let crc = ~seed >>> 0;
  let i = start;
  const fast = end - ((end - i) & 7);
  while (i < fast) {
    const lo = (crc ^ (buf[i]! | (buf[i + 1]! << 8) | (buf[i + 2]! << 16) | (buf[i + 3]! << 24))) >>> 0;
    crc =
      T7[lo & 0xff]! ^ T6[(lo >>> 8) & 0xff]! ^ T5[(lo >>> 16) & 0xff]! ^ T4[lo >>> 24]! ^
      T3[buf[i + 4]!]! ^ T2[buf[i + 5]!]! ^ T1[buf[i + 6]!]! ^ T0[buf[i + 7]!]!;
    i += 8;
  }
  while (i < end) crc = (crc >>> 8) ^ T0[(crc ^ buf[i++]!) & 0xff]!;
  return ~crc >>> 0;
}
