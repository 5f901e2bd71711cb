/**
 * pageContentDigest (rig/pages/page-format.ts): blind to the fields a flush stamps (checksum, LSN,
 * trailer), in both trailer layouts, and to nothing else: over seeded random pages, changing any
 * other byte changes the digest.
 */
import t from 'tap';
import { createRng } from '../../faults/prng.js';
import { pageContentDigest } from '../../rig/pages/page-format.js';

for (const ps of [4096, 16384, 65536]) {
  t.test(`${ps}-byte pages`, async (t) => {
    for (let seed = 1; seed <= 50; seed++) {
      const rng = createRng(seed);
      const page = Buffer.alloc(ps);
      for (let i = 0; i < ps; i++) page[i] = rng.int(256);
      const digest = pageContentDigest(page);
      const stamped = Buffer.from(page);
      stamped.writeUInt32BE(rng.int(2 ** 32), 0); // checksum (or key version)
      stamped.writeBigUInt64BE(BigInt(rng.int(2 ** 32)) * 7n, 16); // LSN
      stamped.writeUInt32BE(rng.int(2 ** 32), ps - 8); // old checksum, or full_crc32's LSN word
      stamped.writeUInt32BE(rng.int(2 ** 32), ps - 4); // trailer LSN, or full_crc32's CRC
      t.equal(pageContentDigest(stamped), digest, `seed ${seed}: a new checksum and LSN leave the content as it was`);
      const changed = Buffer.from(page);
      const at = [4 + rng.int(12), 24 + rng.int(ps - 32)][rng.int(2)]!;
      changed[at] = changed[at]! ^ (1 + rng.int(255));
      t.not(pageContentDigest(changed), digest, `seed ${seed}: byte ${at} changed is another content`);
    }
  });
}
