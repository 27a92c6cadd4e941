import pg from "pg";

/**
 * How long the request path waits on PostgreSQL. A database that stops answering without closing
 * anything (a network partition, a failover, a stalled disk) would otherwise hold every paid
 * request open until the proxy gives up; with these a query fails in seconds, and before a
 * payment is taken that is a 503 and nothing charged. Every query here is one row or one small
 * transaction: a second is long for any of them.
 */
export const postgresTimeouts = {
  connectMs: 3_000,
  /** Client side: the answer must arrive within this, however the server is doing. */
  queryMs: 5_000,
  /** Server side: a transaction whose client went away holds its locks no longer than this. */
  idleInTransactionMs: 10_000,
} as const;

/**
 * A connection pool for the stores' requests, with postgresTimeouts. Schema changes run on
 * their own connection without them (runPostgresSetup): a migration may rightly take longer.
 * @example const pool = openPostgresPool(process.env.DATABASE_URL, 10);
 */
export function openPostgresPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: postgresTimeouts.connectMs,
    query_timeout: postgresTimeouts.queryMs,
    statement_timeout: postgresTimeouts.queryMs,
    idle_in_transaction_session_timeout: postgresTimeouts.idleInTransactionMs,
    keepAlive: true,
  });
  // A dropped idle connection is reported as an event; the pool replaces it on the next query.
  pool.on("error", () => {});
  return pool;
}

/**
 * Runs `work` in one transaction on a connection of `pool`. A failed transaction's connection is
 * closed rather than rolled back: closing rolls it back on the server, where a ROLLBACK sent to a
 * database that stopped answering would wait out another timeout, and a connection whose query
 * timed out may still have that query running.
 */
export async function inPostgresTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    client.release();
    return result;
  } catch (error) {
    client.release(true);
    throw error;
  }
}

/**
 * Runs `work` on a connection of its own without the request path's timeouts (schema set-up and
 * migrations, which may wait for another replica's), closed afterwards.
 */
export async function runPostgresSetup<T>(
  url: string,
  work: (client: pg.ClientBase) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}
