import type { Worker } from "@playwright/test";
import { exampleHistoryEntry } from "@presend/extension/storage/exampleHistoryEntry";
import type { Address } from "viem";
import { setExtensionStorage } from "./extensionStorage";

/** Writes a history entry (a paid check made earlier) straight into extension storage. */
export async function seedCheckedAddress(serviceWorker: Worker, address: Address): Promise<void> {
  await setExtensionStorage(serviceWorker, {
    history: [exampleHistoryEntry({ address, checkedAt: new Date() })],
  });
}
