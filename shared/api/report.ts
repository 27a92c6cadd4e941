import { z } from "zod";
import { chainNames } from "../chains/chains";
import { ListsReportSchema } from "./addressLists";
import { ChainHistorySchema } from "./history";

// The report shape. Server, CLI and extension all parse with these schemas,
// so a field added here is a field every client sees.

export const levels = ["ok", "caution", "warn", "danger"] as const;
export const LevelSchema = z.enum(levels);
export type Level = z.infer<typeof LevelSchema>;

export const ChainNameSchema = z.enum(chainNames);

export const checksumStatuses = ["valid", "missing", "invalid"] as const;
export const ChecksumSchema = z.object({
  /**
   * valid: the EIP-55 form (even one whose letters fall in one case); missing: one case, not the
   * EIP-55 form, so typos are undetectable; invalid: mixed case, wrong.
   */
  status: z.enum(checksumStatuses),
  message: z.string(),
});
export type Checksum = z.infer<typeof ChecksumSchema>;

export const BalanceSchema = z.object({
  /** Base units as a decimal string (bigint-safe). */
  raw: z.string(),
  decimals: z.number().int(),
  /** Human form, e.g. "12.5". */
  formatted: z.string(),
  symbol: z.string(),
});
export type Balance = z.infer<typeof BalanceSchema>;

export const GasSchema = z.object({
  gasPriceWei: z.string(),
  /**
   * Gas a native send to this address uses, as a decimal string: 21000 where no code runs on
   * receipt, more where it does (a Safe, a smart account, a forwarder), as the receive simulation
   * measured it. Absent from reports made before presend read it.
   */
  nativeTransferGas: z.string().optional(),
  /**
   * Cost of a native transfer to this address (nativeTransferGas) at the current gas price, plus
   * its L1 data fee where `l1DataFee` is read.
   */
  nativeTransferCost: BalanceSchema,
  /** Cost of a typical ERC-20 transfer (65000 gas) at the current gas price, plus its L1 data fee. */
  tokenTransferCost: BalanceSchema,
  /**
   * On OP-stack chains (Base, OP Mainnet): the L1 data fee of each of the two sends, as the
   * GasPriceOracle predeploy computes it, already counted in the two costs; null when it could
   * not be read (the costs leave it out). Absent on other chains.
   */
  l1DataFee: z
    .object({ nativeTransfer: BalanceSchema, tokenTransfer: BalanceSchema })
    .nullable()
    .optional(),
});
export type Gas = z.infer<typeof GasSchema>;

export const addressKinds = [
  "eoa",
  "eip7702-delegated",
  "safe",
  "smart-account",
  "token",
  "nft",
  "contract",
] as const;
export const AddressKindSchema = z
  .enum(addressKinds)
  .describe(
    "What the address is: eoa (a key, no code); eip7702-delegated (an EOA running a delegate's code); safe (Safe multisig); smart-account (ERC-4337 / ERC-7579 account); token (ERC-20); nft (ERC-721 / ERC-1155 collection); contract (any other contract).",
  );
export type AddressKind = z.infer<typeof AddressKindSchema>;

export const delegateCategories = ["wallet", "sweeper", "helper", "unknown"] as const;
export const DelegateAssessmentSchema = z
  .object({
    /** The delegate contract the EIP-7702 designator points to. */
    address: z.string(),
    /** keccak256 of the delegate's runtime code; null when it could not be read. */
    codeHash: z.string().nullable(),
    /** wallet: audited wallet code of a known vendor; sweeper: forwards deposits to a thief; helper: a known batch/utility contract; unknown: not in the registry. */
    category: z.enum(delegateCategories),
    /** The registry's label, e.g. "Metamask Delegator", "Crime"; null when unknown. */
    label: z.string().nullable(),
    /** How the registry matched it: by address, or by runtime code hash (same code elsewhere). */
    matchedBy: z.enum(["address", "codeHash"]).nullable(),
  })
  .describe("The EIP-7702 delegate, judged against presend's registry of known delegates.");
export type DelegateAssessment = z.infer<typeof DelegateAssessmentSchema>;

export const walletCodeRoles = ["eip7702-delegate", "implementation"] as const;
export const WalletCodeSchema = z
  .object({
    /** The wallet software it is the code of ("MetaMask", "Coinbase Smart Wallet"); null when unnamed. */
    name: z.string().nullable(),
    /** How wallets run it: EIP-7702 accounts delegate to it, or account proxies point at it. */
    role: z.enum(walletCodeRoles),
    /**
     * address or codeHash: a wallet delegate or implementation of presend's registry, at its own
     * address or the same runtime code elsewhere; proxiableUUID: it answered `proxiableUUID()`
     * with the ERC-1967 implementation slot, which a UUPS implementation does only when called
     * on itself (through a proxy, or on an EIP-7702 account running it, the call reverts).
     */
    matchedBy: z.enum(["address", "codeHash", "proxiableUUID"]),
  })
  .describe(
    "Wallet software's own contract (the code smart accounts run behind their proxies or EIP-7702 accounts delegate to), checked as the address itself: it answers like a smart account and keeps a send, but nobody controls it. Present only then.",
  );
export type WalletCode = z.infer<typeof WalletCodeSchema>;

export const KnownSweeperSchema = z
  .object({
    /** The registry's label for it, e.g. "Crime". */
    label: z.string(),
  })
  .describe(
    "A contract presend's registry lists as an EIP-7702 sweeper (by its address), checked as the address itself: the code stolen keys delegate to, which passes every deposit on to a thief. Present only then.",
  );
export type KnownSweeper = z.infer<typeof KnownSweeperSchema>;

export const SafeNotSetUpSchema = z
  .object({
    /** The Safe release whose proxy code is at the address, e.g. "1.4.1". */
    proxyVersion: z.string(),
    /** The Safe singleton the proxy runs (its masterCopy()); null when the proxy did not say. */
    singleton: z.string().nullable(),
  })
  .describe(
    "A Safe proxy (its code is the proxy of a Safe release) whose setup() never ran: threshold 0, no owners. It keeps what is sent to it, and the first caller of setup() makes themselves its owner. Present only then (kind is contract).",
  );
export type SafeNotSetUp = z.infer<typeof SafeNotSetUpSchema>;

export const receiveOutcomes = ["kept", "rejected", "forwarded", "unavailable"] as const;
export const ReceiveSimulationSchema = z
  .object({
    /**
     * kept: the balance grows by the amount; rejected: the transfer reverts (a native send would
     * fail); forwarded: it succeeds but the balance does not grow (a sweeper or a forwarder);
     * unavailable: the simulation did not run (e.g. the endpoint has no eth_simulateV1).
     */
    outcome: z.enum(receiveOutcomes),
    /** The simulated native amount in wei. */
    amountWei: z.string(),
    /** Why the simulation did not run (only when unavailable). */
    error: z.string().optional(),
    /** The one address a forwarded deposit went to in full, when the node traced it. */
    forwardedTo: z.string().optional(),
  })
  .describe(
    "A simulated small native transfer to the address from a plain wallet (EOA), the sender's own when given (eth_simulateV1 with a state override of the sender's balance), balance read before and after.",
  );
export type ReceiveSimulation = z.infer<typeof ReceiveSimulationSchema>;

export const TokenInfoSchema = z
  .object({
    standard: z.enum(["erc20", "erc721", "erc1155"]),
    symbol: z.string().nullable(),
    name: z.string().nullable(),
    /** True when the token is on the known-token list (Uniswap default list) for this chain. */
    listed: z.boolean(),
  })
  .describe("The token or collection this contract is, when kind is token or nft.");
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

/** Facts about one address on one chain. When status is "unavailable" the facts are null. */
export const ChainFactsSchema = z.object({
  name: ChainNameSchema,
  chainId: z.number().int(),
  status: z.enum(["ok", "unavailable"]),
  /** Why the chain could not be read (only when unavailable). */
  error: z.string().optional(),
  /** True when the address holds contract code; an EIP-7702 account (a key with delegated code) is false. */
  isContract: z.boolean().nullable(),
  /** What the address is; null when it could not be read. */
  kind: AddressKindSchema.nullable(),
  /** The words a user sees for the kind, e.g. "Safe (2 owners, threshold 1)", "wallet (EOA)"; null when unreadable. */
  kindLabel: z
    .string()
    .nullable()
    .default(null)
    .describe(
      'What the address is, in words: "Safe (2 owners, threshold 1)", "Coinbase Smart Wallet", "ERC-4337 smart account", "MetaMask smart account (EIP-7702)", "ERC-20 token contract (USDC)", "contract", "wallet (EOA)"...',
    ),
  /** Wallet vendor when known (e.g. "Coinbase Smart Wallet", "MetaMask"); null otherwise. */
  vendor: z.string().nullable().optional().describe("Wallet vendor when known."),
  /** EIP-7702 delegate, when kind is eip7702-delegated. */
  delegate: z.string().optional(),
  /** The delegate judged against the registry, when kind is eip7702-delegated. */
  delegateAssessment: DelegateAssessmentSchema.optional(),
  /** EIP-1967 implementation of a proxy; null when the slot is empty or could not be read. */
  implementation: z.string().nullable().optional().describe("EIP-1967 implementation address."),
  /** Set when the address is wallet software's own contract, not a wallet (kind is contract). */
  walletCode: WalletCodeSchema.optional(),
  /** Set when the address is a known sweeper contract, not a deposit address (kind is contract). */
  knownSweeper: KnownSweeperSchema.optional(),
  /** Set when the address is a Safe proxy whose setup never ran: no owners (kind is contract). */
  safeNotSetUp: SafeNotSetUpSchema.optional(),
  /** The EntryPoint an ERC-4337 account answers to. */
  entryPoint: z.string().optional().describe("ERC-4337 EntryPoint the account answers to."),
  /** Owner count and threshold, when kind is safe; the singleton its proxy runs; its owners. */
  safe: z
    .object({
      owners: z.number().int(),
      threshold: z.number().int(),
      singleton: z
        .string()
        .nullable()
        .optional()
        .describe(
          "The Safe singleton the proxy runs (its masterCopy()); null when the proxy did not say. Re-creating this Safe at the same address on another chain needs that singleton there.",
        ),
      proxyVersion: z
        .string()
        .nullable()
        .optional()
        .describe(
          "The Safe release whose proxy code is at the address (1.0.0 to 1.5.0); null when the code is no Safe proxy presend knows: it answers like a Safe, but no Safe factory made it, so nobody can re-create it on another chain through one.",
        ),
      ownerAddresses: z
        .array(z.string())
        .optional()
        .describe(
          "The owners as the Safe answers getOwners() (the first 50 of a longer list). A deep check compares them with a Safe at the same address on another chain: whoever reaches an address first on a chain owns it there.",
        ),
    })
    .optional(),
  /** The token or collection, when kind is token or nft. */
  token: TokenInfoSchema.optional(),
  /**
   * The account's OWN outgoing transactions: the nonce for an EOA (or EIP-7702 account), Safe
   * `nonce()` for a Safe, the EntryPoint's `getNonce(account, 0)` for an ERC-4337 account; null
   * when unknown or meaningless (tokens and other contracts).
   */
  outgoingTxs: z.number().int().nullable(),
  /** eth_getTransactionCount as read (every contract starts at 1, EIP-161). */
  accountNonce: z.number().int().nullable().optional().describe("Raw account nonce as read."),
  receiveSimulation: ReceiveSimulationSchema.optional(),
  /** Facts of this chain that could not be read although the chain answered (e.g. "USDT balance"). */
  unknowns: z
    .array(z.string())
    .optional()
    .describe(
      "Parts of this chain's facts that could not be read; each makes the verdict at least caution.",
    ),
  native: BalanceSchema.nullable(),
  usdc: BalanceSchema.nullable(),
  usdt: BalanceSchema.nullable(),
  /** Bridged USDC variant (USDbC / USDC.e), on chains that have one. */
  usdcBridged: BalanceSchema.nullable().optional(),
  gas: GasSchema.nullable(),
  blockNumber: z.string().nullable(),
  /** Token (and native) history around the check on this chain; absent when not read. */
  history: ChainHistorySchema.optional(),
});
export type ChainFacts = z.infer<typeof ChainFactsSchema>;

export const ReasonSchema = z.object({
  /** Stable machine code, e.g. "stablecoin_contract", "fresh_address". */
  code: z.string(),
  level: LevelSchema,
  message: z.string(),
  /** The chain the reason is about, when it is about one. */
  chain: ChainNameSchema.optional(),
});
export type Reason = z.infer<typeof ReasonSchema>;

export const TokenMismatchSchema = z.object({
  code: z.enum(["token_contract", "stablecoin_elsewhere", "bridged_usdc"]),
  message: z.string(),
  chains: z.array(ChainNameSchema),
});
export type TokenMismatch = z.infer<typeof TokenMismatchSchema>;

export const VerdictGasSchema = z.object({
  /** One sentence about what sending costs on the target chain, or why it is unknown. */
  summary: z.string(),
  nativeTransferCost: BalanceSchema.nullable(),
  tokenTransferCost: BalanceSchema.nullable(),
});

export const VerdictSchema = z.object({
  level: LevelSchema,
  headline: z.string(),
  /** One actionable sentence. */
  next: z.string(),
  gas: VerdictGasSchema,
  reasons: z.array(ReasonSchema),
});
export type Verdict = z.infer<typeof VerdictSchema>;

export const DeepVerdictSchema = VerdictSchema.extend({
  tokenMismatch: z.array(TokenMismatchSchema),
  /** Chains where the address is active although it is not active on the target chain. */
  wrongNetwork: z.object({ flagged: z.boolean(), activeOn: z.array(ChainNameSchema) }),
});
export type DeepVerdict = z.infer<typeof DeepVerdictSchema>;

export const ReportSchema = z.object({
  address: z.string(),
  /** The sender the check was made for (`from` of the request, EIP-55); absent without one. */
  from: z.string().optional(),
  checksum: ChecksumSchema,
  chain: ChainFactsSchema,
  verdict: VerdictSchema,
  /** The operator's address lists consulted, and what matched; absent when none is loaded. */
  lists: ListsReportSchema.optional(),
  report: z.string(),
  checkedAt: z.string(),
});
export type Report = z.infer<typeof ReportSchema>;

export const DeepReportSchema = ReportSchema.extend({
  verdict: DeepVerdictSchema,
  others: z.array(ChainFactsSchema),
});
export type DeepReport = z.infer<typeof DeepReportSchema>;

export const CheckRequestSchema = z.object({
  address: z.string(),
  chain: ChainNameSchema.default("base"),
  /** Optional: the sender, whose own payments are read (the OpenAPI route describes it). */
  from: z.string().optional(),
});
export type CheckRequest = z.infer<typeof CheckRequestSchema>;
