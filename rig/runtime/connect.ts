/**
 * A mysql2 connection to a server over its unix socket, as the rig's one user (root, no password,
 * as the datadir was initialised). The driver loads with the first connection: a command that
 * never connects (`rig disk`, `rig cleanup`) does not pay for it.
 */
import type { Connection } from 'mysql2/promise';

export interface ServerEndpoint {
  socketPath: string;
  user?: string;
  password?: string;
  database?: string;
}

export async function connectToServer(
  endpoint: ServerEndpoint,
  options: { connectTimeoutMs?: number } = {},
): Promise<Connection> {
  const { createConnection } = await import('mysql2/promise');
  return createConnection({
    socketPath: endpoint.socketPath,
    user: endpoint.user ?? 'root',
    password: endpoint.password ?? '',
    database: endpoint.database,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    supportBigNumbers: true,
    bigNumberStrings: true, // BIGINT columns (the ledger's seq) come back as exact strings
    // no stack captured at every call for the caller's frames in a driver error: the load's
    // clients make thousands of calls a second, and the rig reports a driver error by its code
    trace: false,
  });
}

/** Closes a connection, and destroys it if the server is gone and a polite end cannot finish. */
export async function closeQuietly(connection: Connection | null | undefined): Promise<void> {
  if (!connection) return;
  try {
    await Promise.race([connection.end(), new Promise((_, reject) => setTimeout(reject, 2000).unref())]);
  } catch {
    connection.destroy();
  }
}
