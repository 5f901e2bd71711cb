/** Where a campaign ran: the server and its version, kernel, Node, rig version and host name. */
import { hostname, release } from 'node:os';
import type { Environment } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import { rigVersion } from '../version.js';

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
