import type { Worker } from "@playwright/test";
import type { Address } from "viem";
import { exampleHistoryEntry } from "../../extension/src/lib/storage/exampleHistoryEntry";
import { setExtensionStorage } from "./extensionStorage";

/** Writes a history entry (a paid check made earlier) straight into extension storage. */
export async function seedCheckedAddress(serviceWorker: Worker, address: Address): Promise<void> {
  await setExtensionStorage(serviceWorker, {
    history: [exampleHistoryEntry({ address, checkedAt: new Date() })],
  });
}
