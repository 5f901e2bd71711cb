import t from 'tap';
import { execa } from 'execa';
import { PORT_NAMES, RUN_FILES, SHARE_TAGS, guestInit } from '../../rig/vm/guest-init.js';

const init = guestInit(['virtio_ring', 'dm_mod', 'dm_flakey']);

t.test('a shell script the shell accepts', async (t) => {
  t.ok(init.startsWith('#!/bin/sh\n'));
  const check = await execa('sh', ['-n'], { input: init, reject: false });
  t.equal(check.exitCode, 0, String(check.stderr));
});

t.test('loads the modules in the order given', async (t) => {
  t.match(init, /for m in virtio_ring dm_mod dm_flakey; do insmod \/lib\/modules\/\$m\.ko/);
});

t.test("the host's root read-only, the shares by their tags, the ports by their names", async (t) => {
  t.match(init, new RegExp(`cache=loose,ro ${SHARE_TAGS.root} \\$R `));
  t.match(init, new RegExp(`${SHARE_TAGS.run} \\$R\\$RUN`));
  t.match(init, new RegExp(`${SHARE_TAGS.dir} \\$R\\$DIR`));
  t.match(init, new RegExp(`${SHARE_TAGS.cache} \\$R\\$CACHE`));
  t.match(init, 'rig.cache=*) CACHE=');
  t.match(init, `${PORT_NAMES.stdout}) OUT=`);
  t.match(init, `${PORT_NAMES.stderr}) ERR=`);
});

t.test('runs the command script chrooted, writes its status, then powers off', async (t) => {
  const run = init.indexOf(`chroot $R /bin/sh $RUN/${RUN_FILES.command} </dev/null >$OUT 2>$ERR`);
  const status = init.indexOf(`echo $? > $R$RUN/${RUN_FILES.status}`);
  t.ok(run > 0 && status > run, 'status right after the command');
  t.match(init, /sync\npoweroff -f\n$/);
});
