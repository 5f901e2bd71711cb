import t from 'tap';
import { chooseMirror, parseDeb822Sources, parseOneLineSources, pickMirror, readHostSuite, sourcesListFor } from '../../rig/docker/apt-mirror.js';

const deb822 = `Types: deb
# a comment
URIs: http://archive.example/debian/
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://archive.example/debian-security
Suites: bookworm-security
Components: main

Types: deb-src
URIs: http://src.example/debian
Suites: bookworm
Components: main

Types: deb
Enabled: no
URIs: http://off.example/debian
Suites: bookworm
Components: main
`;

t.test('deb822 paragraphs: deb entries only, disabled ones skipped', async (t) => {
  const entries = parseDeb822Sources(deb822);
  t.same(entries.map((e) => e.uri), ['http://archive.example/debian/', 'http://archive.example/debian-security']);
  t.equal(pickMirror(entries, 'bookworm'), 'http://archive.example/debian', 'the suite itself, trailing slash trimmed');
  t.equal(
    sourcesListFor(entries, 'bookworm'),
    'deb http://archive.example/debian/ bookworm main\n' +
      'deb http://archive.example/debian/ bookworm-updates main\n' +
      'deb http://archive.example/debian-security bookworm-security main\n',
  );
});

t.test('one-line sources: options, comments and deb-src ignored', async (t) => {
  const text = [
    '# deb http://commented.example/debian bookworm main',
    'deb-src http://src.example/debian bookworm main',
    'deb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian bookworm main contrib',
    'deb http://mirror.example/debian bookworm-updates main # trailing',
  ].join('\n');
  const entries = parseOneLineSources(text);
  t.same(entries, [
    { uri: 'http://mirror.example/debian', suites: ['bookworm'], components: ['main', 'contrib'] },
    { uri: 'http://mirror.example/debian', suites: ['bookworm-updates'], components: ['main'] },
  ]);
  t.equal(pickMirror(entries, 'bookworm'), 'http://mirror.example/debian');
  t.equal(pickMirror(entries, 'trixie'), null, 'no mirror for another suite');
});

t.test('a suite the host does not list comes from the host mirror, -updates and -security alike', async (t) => {
  const entries = parseDeb822Sources(deb822);
  const choice = chooseMirror(entries, 'trixie', 'bookworm');
  t.same(choice, {
    uri: 'http://archive.example/debian',
    sourcesList:
      'deb http://archive.example/debian/ trixie main\n' +
      'deb http://archive.example/debian/ trixie-updates main\n' +
      'deb http://archive.example/debian-security trixie-security main\n',
  });
  t.equal(chooseMirror(entries, 'bookworm', null)?.sourcesList, sourcesListFor(entries, 'bookworm'), 'a listed suite: its own entries');
  t.equal(chooseMirror(entries, 'trixie', null), null, 'no host suite known: no mirror');
  t.equal(chooseMirror([], 'trixie', 'bookworm'), null);
});

t.test('sid has no -updates or -security: only its own line', async (t) => {
  const entries = parseDeb822Sources(deb822);
  t.same(chooseMirror(entries, 'sid', 'bookworm'), { uri: 'http://archive.example/debian', sourcesList: 'deb http://archive.example/debian/ sid main\n' });
});

t.test('the host suite is VERSION_CODENAME from os-release', async (t) => {
  const dir = t.testdir({ 'os-release': 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n', empty: '' });
  t.equal(await readHostSuite(`${dir}/os-release`), 'bookworm');
  t.equal(await readHostSuite(`${dir}/empty`), null);
  t.equal(await readHostSuite(`${dir}/missing`), null);
});
