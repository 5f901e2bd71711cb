/** A small seeded generator (sfc32 seeded through splitmix32): same seed, same sequence, anywhere. */
export interface Rng {
  next(): number; // [0, 1)
  int(n: number): number; // [0, n)
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRng(seed: number): Rng {
  const mix = splitmix32(Math.floor(seed) ^ Math.floor(seed / 2 ** 32));
  let a = mix(), b = mix(), c = mix(), d = mix();
  const next32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) next32();
  return {
    next: () => next32() / 2 ** 32,
    int: (n: number) => Math.floor((next32() / 2 ** 32) * n),
  };
}
