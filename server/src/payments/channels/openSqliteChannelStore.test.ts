import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeChannelStore } from "./channelStoreContract";
import { openSqliteChannelStore } from "./openSqliteChannelStore";

describeChannelStore("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "presend-channels-"));
  return {
    open: async () => openSqliteChannelStore(join(dir, "channels.sqlite")),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
