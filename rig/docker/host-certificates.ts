/**
 * The certificate authorities this host trusts beyond Debian's own set: the PEM files an admin
 * added under /usr/local/share/ca-certificates (on a network whose egress is a TLS-inspecting
 * proxy, its CA is there). The rig's image build passes them to npm in its build stage, so the
 * build reaches the npm registry wherever the host does; the final image does not keep them.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCAL_CA_DIR = '/usr/local/share/ca-certificates';

export async function hostCertificates(dir = LOCAL_CA_DIR): Promise<string> {
  const pems: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isFile() || !entry.name.endsWith('.crt')) continue;
    const text = await readFile(join(entry.parentPath, entry.name), 'utf8').catch(() => '');
    if (text.includes('-----BEGIN CERTIFICATE-----')) pems.push(text.trim());
  }
  return pems.join('\n');
}
