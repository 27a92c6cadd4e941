import type { Channel, ChannelUpdateResult } from "@x402/evm/batch-settlement/server";
import type pg from "pg";
import {
  inPostgresTransaction,
  openPostgresPool,
  runPostgresSetup,
} from "../../postgres/openPostgresPool";
import { normalizeKey } from "../records/paymentRecords";
import type { ChannelCharge, ChannelStore } from "./channelStore";

// Created if missing (idempotent), beside the payment records' own migrations: the channel
// tables change with the scheme, not with the records.
const schema = `
  CREATE TABLE IF NOT EXISTS presend_channels (
    channel_id TEXT PRIMARY KEY,
    channel_json TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS presend_channel_charges (
    payer TEXT NOT NULL,
    nonce TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    cumulative NUMERIC(78, 0) NOT NULL,
    committed BOOLEAN NOT NULL DEFAULT false,
    claimed_tx TEXT,
    PRIMARY KEY (payer, nonce)
  );
  CREATE INDEX IF NOT EXISTS presend_channel_charges_open
    ON presend_channel_charges (channel_id) WHERE claimed_tx IS NULL;`;

// Any constant of our own: replicas starting together create the tables one at a time.
const schemaLockId = 0x70726574;

type ChargeRow = {
  payer: string;
  nonce: string;
  channel_id: string;
  cumulative: string;
  committed: boolean;
  claimed_tx: string | null;
};

/**
 * The ChannelStore on PostgreSQL, shared by every replica: each channel update reads and writes in
 * one transaction holding a transaction-level advisory lock on the channel (which also serializes
 * the first write of a channel no row exists for yet) and the row's FOR UPDATE lock.
 * @example const channels = await openPostgresChannelStore(process.env.DATABASE_URL);
 */
export async function openPostgresChannelStore(url: string): Promise<ChannelStore> {
  await runPostgresSetup(url, async (setup) => {
    try {
      await setup.query("SELECT pg_advisory_lock($1)", [schemaLockId]);
      await setup.query(schema);
    } finally {
      await setup.query("SELECT pg_advisory_unlock($1)", [schemaLockId]).catch(() => {});
    }
  });
  const pool = openPostgresPool(url, 5);
  const read = async (client: pg.PoolClient | pg.Pool, id: string, lock = false) => {
    const result = await client.query<{ channel_json: string }>(
      `SELECT channel_json FROM presend_channels WHERE channel_id = $1${lock ? " FOR UPDATE" : ""}`,
      [id],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : (JSON.parse(row.channel_json) as Channel);
  };
  let closed = false;
  const chargeOf = (row: ChargeRow): ChannelCharge => ({
    key: { payer: row.payer, nonce: row.nonce },
    channelId: row.channel_id,
    cumulative: BigInt(row.cumulative),
    committed: row.committed,
    claimedTx: row.claimed_tx,
  });

  return {
    get: (channelId) => read(pool, channelId.toLowerCase()),
    async list() {
      const result = await pool.query<{ channel_json: string }>(
        "SELECT channel_json FROM presend_channels",
      );
      return result.rows.map((row) => JSON.parse(row.channel_json) as Channel);
    },
    async updateChannel(channelId, change): Promise<ChannelUpdateResult> {
      const id = channelId.toLowerCase();
      return inPostgresTransaction(pool, async (client): Promise<ChannelUpdateResult> => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [id]);
        const current = await read(client, id, true);
        const next = change(current);
        if (next === current) return { channel: current, status: "unchanged" };
        if (next === undefined) {
          await client.query("DELETE FROM presend_channels WHERE channel_id = $1", [id]);
          return { channel: undefined, status: current ? "deleted" : "unchanged" };
        }
        await client.query(
          `INSERT INTO presend_channels (channel_id, channel_json) VALUES ($1, $2)
           ON CONFLICT (channel_id) DO UPDATE SET channel_json = excluded.channel_json`,
          [id, JSON.stringify(next)],
        );
        return { channel: next, status: "updated" };
      });
    },
    async addCharge(charge) {
      const { payer, nonce } = normalizeKey(charge.key);
      await pool.query(
        `INSERT INTO presend_channel_charges (payer, nonce, channel_id, cumulative)
         VALUES ($1, $2, $3, $4) ON CONFLICT (payer, nonce) DO NOTHING`,
        [payer, nonce, charge.channelId.toLowerCase(), charge.cumulative.toString()],
      );
    },
    async commitCharge(key) {
      const { payer, nonce } = normalizeKey(key);
      await pool.query(
        "UPDATE presend_channel_charges SET committed = true WHERE payer = $1 AND nonce = $2",
        [payer, nonce],
      );
    },
    async dropCharge(key) {
      const { payer, nonce } = normalizeKey(key);
      await pool.query(
        "DELETE FROM presend_channel_charges WHERE payer = $1 AND nonce = $2 AND NOT committed",
        [payer, nonce],
      );
    },
    async dropUnclaimable(key) {
      const { payer, nonce } = normalizeKey(key);
      await pool.query(
        "DELETE FROM presend_channel_charges WHERE payer = $1 AND nonce = $2 AND claimed_tx IS NULL",
        [payer, nonce],
      );
    },
    async unclaimedCharges(channelId) {
      const result =
        channelId === undefined
          ? await pool.query<ChargeRow>(
              "SELECT * FROM presend_channel_charges WHERE claimed_tx IS NULL ORDER BY cumulative",
            )
          : await pool.query<ChargeRow>(
              `SELECT * FROM presend_channel_charges WHERE claimed_tx IS NULL AND channel_id = $1
               ORDER BY cumulative`,
              [channelId.toLowerCase()],
            );
      return result.rows.map(chargeOf);
    },
    async markClaimed(keys, tx) {
      await inPostgresTransaction(pool, async (client) => {
        for (const key of keys) {
          const { payer, nonce } = normalizeKey(key);
          await client.query(
            `UPDATE presend_channel_charges SET claimed_tx = $1
             WHERE payer = $2 AND nonce = $3 AND claimed_tx IS NULL`,
            [tx.toLowerCase(), payer, nonce],
          );
        }
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
