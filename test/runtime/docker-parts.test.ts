import t from 'tap';
import { containerOptions, demuxLogs } from '../../rig/runtime/docker-container.js';
import { exitFromCode } from '../../rig/runtime/docker-server.js';

t.test('every container: run label, no network, no capabilities, entrypoint replaced', async (t) => {
  const options = containerOptions({
    image: 'img', runId: 'r1', role: 'server', command: ['mariadbd', '--no-defaults'], user: '0:0',
    datadir: '/mnt/disk/data', runDir: '/tmp/run',
  });
  t.equal(options.Labels?.['powercut-rig.run'], 'r1');
  t.same(options.Entrypoint, ['mariadbd']);
  t.same(options.Cmd, ['--no-defaults']);
  t.equal(options.HostConfig?.NetworkMode, 'none');
  t.equal(options.NetworkDisabled, true, 'a server: no network hook at its start');
  const install = containerOptions({ image: 'img', runId: 'r1', role: 'install', command: ['mariadb-install-db'], user: '0:0', datadir: '/d' });
  t.equal(install.NetworkDisabled, undefined, "the initialiser keeps the engine's hosts file");
  t.equal(install.HostConfig?.NetworkMode, 'none');
  t.same(options.HostConfig?.CapDrop, ['ALL']);
  t.same(options.HostConfig?.CapAdd, []);
  t.same(options.HostConfig?.Binds, ['/mnt/disk/data:/var/lib/mysql', '/tmp/run:/run/powercut']);
  t.equal(options.HostConfig?.PortBindings, undefined, 'no ports');
});

t.test('demuxLogs joins stdout and stderr frames', async (t) => {
  const frame = (stream: number, text: string) => {
    const body = Buffer.from(text);
    const head = Buffer.alloc(8);
    head[0] = stream;
    head.writeUInt32BE(body.length, 4);
    return Buffer.concat([head, body]);
  };
  t.equal(demuxLogs(Buffer.concat([frame(1, 'out\n'), frame(2, 'err\n')])), 'out\nerr\n');
  t.equal(demuxLogs(Buffer.alloc(0)), '');
});

t.test('exit codes above 128 name the signal', async (t) => {
  t.same(exitFromCode(0), { exitCode: 0, signal: null });
  t.same(exitFromCode(1), { exitCode: 1, signal: null });
  t.same(exitFromCode(137), { exitCode: null, signal: 'SIGKILL' });
  t.same(exitFromCode(134), { exitCode: null, signal: 'SIGABRT' });
});
