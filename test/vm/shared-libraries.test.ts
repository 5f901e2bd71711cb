import t from 'tap';
import { readLddPaths, sharedLibrariesOf } from '../../rig/vm/shared-libraries.js';

const LDD = `\tlinux-vdso.so.1 (0x00007f226b5b5000)
\tlibdevmapper.so.1.02.1 => /lib/x86_64-linux-gnu/libdevmapper.so.1.02.1 (0x00007f226b50a000)
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f226b328000)
\t/lib64/ld-linux-x86-64.so.2 (0x00007f226b5b7000)
\tlibmissing.so.1 => not found
`;

t.test("the libraries' paths and the loader's, not the vDSO", async (t) => {
  t.same(readLddPaths(LDD), [
    '/lib/x86_64-linux-gnu/libdevmapper.so.1.02.1',
    '/lib/x86_64-linux-gnu/libc.so.6',
    '/lib64/ld-linux-x86-64.so.2',
  ]);
});

t.test('a dynamic program has libraries; a script has none', async (t) => {
  t.ok((await sharedLibrariesOf(process.execPath)).some((p) => /\/libc\.so/.test(p)), 'node loads libc');
  t.same(await sharedLibrariesOf('/no/such/program'), []);
});
