// The package's entry: browser-safe (no node: imports), used by the CLI, the MCP server and the
// extension's background.

export { undeployedAccountReasons } from "./answers/undeployedAccountMessage";
export { type ChannelLock, createMemoryChannelLock } from "./channels/channelLock";
export { type ChannelSaltStore, createMemoryChannelSaltStore } from "./channels/channelSaltStore";
export {
  checkChannelRequirement,
  maxWithdrawDelaySeconds,
} from "./channels/checkChannelRequirement";
export {
  checkSignableTypedData,
  type SignableKind,
  type SignableTypedData,
} from "./channels/checkSignableTypedData";
export {
  type ChannelCloseResult,
  type ChannelPaymentOptions,
  defaultDepositChecks,
} from "./channels/createChannelPayer";
export {
  createMemoryDepositLedgerStore,
  type DepositLedgerState,
  type DepositLedgerStore,
} from "./channels/createDepositLedger";
export { combineSpendCaps } from "./combineSpendCaps";
export {
  type CheckInput,
  createPresendClient,
  type PresendClient,
  type PresendClientOptions,
  type PresendSigner,
} from "./createPresendClient";
export { createMemoryPinStore, type PinRecord, PinRecordSchema, type PinStore } from "./PinStore";
export type {
  ClientEvent,
  PaidResult,
  ReceiptResult,
  RefusalCode,
  SentAuthorization,
  Settlement,
  ValidateResult,
} from "./PresendResult";
export {
  baseNetwork,
  baseUsdc,
  checkRequirement,
  maxValiditySeconds,
} from "./policy/checkRequirement";
export {
  createSessionSpendCap,
  type PaymentKey,
  type Reservation,
  type SpendCap,
} from "./SpendCap";
