import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { NO_CWD_EXIT, commandScript } from '../../rig/vm/command-script.js';
import { shellQuote } from '../../rig/vm/shell-quote.js';

const dir = mkdtempSync(join(tmpdir(), 'rig-vm-script-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the script with the host's sh, as the guest does after its chroot. */
async function runScript(argv: string[], cwd = dir, forwardEnv?: Record<string, string>) {
  const file = join(dir, 'command.sh');
  writeFileSync(file, commandScript({ argv, cwd, path: process.env.PATH!, cacheDir: '/var/cache/shared-cache', forwardEnv }));
  return execa('sh', [file], { reject: false, cwd: '/' });
}

t.test('shell words: plain ones as they are, the rest quoted', async (t) => {
  for (const [word, quoted] of [['node', 'node'], ['a b', "'a b'"], ["it's", `'it'\\''s'`], ['', "''"], ['$HOME', "'$HOME'"]]) {
    t.equal(shellQuote(word!), quoted, JSON.stringify(word));
  }
});

t.test('every argument arrives as it was given, in the folder given', async (t) => {
  const argv = ['node', '-e', 'console.log(JSON.stringify([process.cwd(), ...process.argv.slice(1)]))', "it's", 'a b', '$HOME', '*'];
  const out = await runScript(argv);
  t.equal(out.exitCode, 0, String(out.stderr));
  t.same(JSON.parse(out.stdout), [dir, "it's", 'a b', '$HOME', '*']);
});

t.test("the command's exit status is the script's", async (t) => {
  for (const code of [0, 1, 7, 255]) t.equal((await runScript(['sh', '-c', `exit ${code}`])).exitCode, code, `exit ${code}`);
  t.equal((await runScript(['no-such-command-here'])).exitCode, 127, 'not found: 127, as any shell');
});

t.test('no udev in the guest: dmsetup is told not to wait for it', async (t) => {
  t.equal((await runScript(['sh', '-c', 'echo $DM_DISABLE_UDEV'])).stdout, '1');
});

t.test('the rig in the guest knows it is in one', async (t) => {
  t.equal((await runScript(['sh', '-c', 'echo $RIG_IN_GUEST'])).stdout, '1');
});

t.test("the rig in the guest uses the shared cache, whatever the host's RIG_CACHE", async (t) => {
  t.equal((await runScript(['sh', '-c', 'echo $RIG_CACHE'])).stdout, '/var/cache/shared-cache');
});

t.test("OpenSSL in the guest keeps to its scalar code, which TCG runs fastest, with the same results", async (t) => {
  const hash = "node -e \"process.stdout.write(require('crypto').createHash('sha256').update(Buffer.alloc(1 << 20, 7)).digest('hex'))\"";
  const masked = await runScript(['sh', '-c', `echo $OPENSSL_ia32cap; ${hash}`]);
  const plain = await execa('sh', ['-c', hash]);
  t.same(masked.stdout.split('\n'), ['~0x1000020000000000:~0x20000020', plain.stdout]);
});

t.test("the host's variables it is given are set, the rig's own win", async (t) => {
  const forwarded = { _TAPJS_PROCESSINFO_CWD_: '/work/it s', NODE_OPTIONS: '"--import=file:///x/import.mjs"', RIG_CACHE: '/elsewhere' };
  const out = await runScript(['sh', '-c', 'echo "$_TAPJS_PROCESSINFO_CWD_|$NODE_OPTIONS|$RIG_CACHE"'], dir, forwarded);
  t.equal(out.stdout, '/work/it s|"--import=file:///x/import.mjs"|/var/cache/shared-cache');
  // in the guest the script starts with /init's few variables; here the host's would show through
  t.notMatch(commandScript({ argv: ['true'], cwd: dir, path: '/bin', cacheDir: '/c' }), /NODE_OPTIONS|_TAPJS_/, 'none given: none set');
});

t.test('a folder the guest lacks ends the script before the command', async (t) => {
  t.equal((await runScript(['true'], join(dir, 'missing'))).exitCode, NO_CWD_EXIT);
});

t.test('no command is a bug of the caller', async (t) => {
  t.throws(() => commandScript({ argv: [], cwd: dir, path: '/bin', cacheDir: '/c' }), /no command/);
});
