/**
 * How an explore state's crash image is identified (`crashImageBlocksSha256`): the sha256 of the
 * sha256s of its blocks, in order, the last block perhaps shorter (computed by
 * rig/explore/image-hash.ts). The blocks are 256 KiB (`crashImageDigestBlock`); records written
 * before that field existed used 4 MiB blocks. A state hashes again every block written since the
 * state before, so smaller blocks hash less (a third less per state than 4 MiB in the quick
 * campaign); a shell's check of the same digest starts one sha256sum per block. Its name as the
 * rig prints it, and the same digest from a shell.
 */
export const DIGEST_BLOCK = 256 * 1024;

/** The blocks of the digests in records that do not name theirs. */
export const FIRST_DIGEST_BLOCK = 4 * 1024 * 1024;

/** The block size of a record's crash-image digest. */
export function digestBlockOf(record: { crashImageDigestBlock?: number }): number {
  return record.crashImageDigestBlock ?? FIRST_DIGEST_BLOCK;
}

const sizeName = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`);

/** What the digest is called beside its value: "crash image <name> <hex>". */
export function blocksDigestName(block: number): string {
  return `sha256 of its ${sizeName(block)} blocks`;
}

/** A shell command printing the digest of `file` (a shell word: quote it if it needs quoting), coreutils only. */
export function blocksDigestCommand(file: string, block: number): string {
  return `split -b ${block} --filter='sha256sum | cut -c1-64' ${file} | tr -d '\\n' | tr a-f A-F | basenc --base16 -d | sha256sum`;
}
