/**
 * How an explore state's crash image is identified (`crashImageBlocksSha256`): the sha256 of the
 * sha256s of its 4 MiB blocks, in order, the last block perhaps shorter (computed by
 * rig/explore/image-hash.ts). Its name as the rig prints it, and the same digest from a shell.
 */
export const DIGEST_BLOCK = 4 * 1024 * 1024;

/** What the digest is called beside its value: "crash image <name> <hex>". */
export const BLOCKS_DIGEST_NAME = 'sha256 of its 4 MiB blocks';

/** A shell command printing the digest of `file` (a shell word: quote it if it needs quoting), coreutils only. */
export function blocksDigestCommand(file: string): string {
  return `split -b ${DIGEST_BLOCK} --filter='sha256sum | cut -c1-64' ${file} | tr -d '\\n' | tr a-f A-F | basenc --base16 -d | sha256sum`;
}
