import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { type LocalPostgres, startPostgres } from "../../localServices/startPostgres";
import { describeChannelStore } from "./channelStoreContract";
import { openPostgresChannelStore } from "./openPostgresChannelStore";

// One real PostgreSQL (Debian's) for the file; every contract case gets its own database.
let postgres: LocalPostgres;
let databases = 0;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

describeChannelStore("postgresql", async () => {
  const name = `channels_${++databases}`;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = postgres.url.replace(/\/postgres$/, `/${name}`);
  return { open: () => openPostgresChannelStore(url), cleanup: async () => {} };
});
