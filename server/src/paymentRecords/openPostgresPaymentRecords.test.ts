import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalPostgres, startPostgres } from "../localServices/startPostgres";
import { runPostgresSetup } from "../postgres/openPostgresPool";
import {
  migratePostgres,
  openPostgresPaymentRecords,
  postgresMigrations,
} from "./openPostgresPaymentRecords";
import { describePaymentRecordStore } from "./paymentRecordStoreContract";
import { samplePaymentRecord } from "./samplePaymentRecord";

// One real PostgreSQL (Debian's) for the file; every contract case gets its own database.
let postgres: LocalPostgres;
let databases = 0;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

async function freshDatabase(): Promise<string> {
  const name = `records_${++databases}`;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

describePaymentRecordStore("postgresql", async () => {
  const url = await freshDatabase();
  let store = await openPostgresPaymentRecords(url);
  return {
    store,
    reopen: async () => {
      await store.close();
      store = await openPostgresPaymentRecords(url);
      return store;
    },
    cleanup: async () => {},
  };
});

describe("PostgreSQL migrations", () => {
  it("run once, also when replicas start together", async () => {
    const url = await freshDatabase();
    const stores = await Promise.all([1, 2, 3].map(() => openPostgresPaymentRecords(url)));
    const pool = new pg.Pool({ connectionString: url });
    try {
      expect(await runPostgresSetup(url, migratePostgres)).toBe(0);
      const versions = await pool.query("SELECT version FROM presend_migrations ORDER BY version");
      expect(versions.rows.map((row) => row.version)).toEqual(
        postgresMigrations.map((_, index) => index + 1),
      );
      // Every replica sees what another one wrote.
      const [first, second] = stores;
      await first?.begin(samplePaymentRecord(7));
      expect((await second?.byAuthorization(samplePaymentRecord(7)))?.status).toBe("pending");
    } finally {
      await pool.end();
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
