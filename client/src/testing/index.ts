// The client's testing entry (@presend/client/testing): stand-ins and contracts for tests. Never
// imported by production code, so no bundle carries them.
export { type FakePaidApiOptions, fakePaidApi } from "./fakePaidApi";
export { describePinStore, samplePin } from "./pinStoreContract";
