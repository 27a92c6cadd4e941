import { createMemoryPinStore } from "./PinStore";
import { describePinStore } from "./pinStoreContract";

describePinStore("memory", () => {
  const store = createMemoryPinStore();
  return { store, reopen: () => store };
});
