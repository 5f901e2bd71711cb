/** The shared libraries a program loads, as ldd names them: what to copy beside it into the initramfs. */
import { execa } from 'execa';

/** Absolute paths in ldd's output (`libx.so => /lib/.../libx.so (0x..)` and the loader's own line). */
export function readLddPaths(ldd: string): string[] {
  const paths: string[] = [];
  for (const line of ldd.split('\n')) {
    const match = /(?:=>\s*)?(\/\S+)\s+\(0x[0-9a-f]+\)\s*$/.exec(line);
    if (match?.[1]) paths.push(match[1]);
  }
  return paths;
}

export async function sharedLibrariesOf(program: string): Promise<string[]> {
  const out = await execa('ldd', [program], { reject: false });
  // a static program: ldd says "not a dynamic executable" and exits 1
  return out.exitCode === 0 ? readLddPaths(String(out.stdout)) : [];
}
