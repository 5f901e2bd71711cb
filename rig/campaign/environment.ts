/** Where a campaign ran: the server and its version, kernel, Node, rig version and host name. */
import { readFileSync } from 'node:fs';
import { hostname, release } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';
import type { Environment } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';

export function rigVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

export async function describeEnvironment(runtime: ServerRuntime): Promise<Environment> {
  const { server, version } = await runtime.describe();
  return {
    server,
    serverVersion: version,
    kernel: release(),
    node: process.version,
    rigVersion: rigVersion(),
    hostname: hostname(),
  };
}
