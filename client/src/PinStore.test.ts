import { createMemoryPinStore } from "./PinStore";
import { describePinStore } from "./testing/pinStoreContract";

describePinStore("memory", () => {
  const store = createMemoryPinStore();
  return { store, reopen: () => store };
});
