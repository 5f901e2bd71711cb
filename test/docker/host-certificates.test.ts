/** The host's own certificate authorities, as the rig image's build stage gets them. */
import t from 'tap';
import { hostCertificates } from '../../rig/docker/host-certificates.js';

const pem = (name: string) => `-----BEGIN CERTIFICATE-----\n${name}\n-----END CERTIFICATE-----\n`;

t.test('every PEM certificate in a .crt file, nested ones too, in name order', async (t) => {
  const dir = t.testdir({
    'b-proxy.crt': pem('B'),
    'a-custom.crt': pem('A'),
    'notes.crt': 'not a certificate',
    'c.pem': pem('C'),
    corp: { 'd.crt': pem('D') },
  });
  t.equal(await hostCertificates(dir), [pem('A'), pem('B'), pem('D')].map((p) => p.trim()).join('\n'));
});

t.test('none added, or no such folder: nothing', async (t) => {
  t.equal(await hostCertificates(t.testdir({})), '');
  t.equal(await hostCertificates('/nonexistent/ca-certificates'), '');
});
