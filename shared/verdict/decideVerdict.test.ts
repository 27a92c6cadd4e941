import { describe, expect, it } from "vitest";
import { type ChainFacts, type Checksum, checksumStatuses, type Level } from "../api/report";
import { chainNames, chains } from "../chains/chains";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";
import { decideVerdict } from "./decideVerdict";

const wallet = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const delegate = "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B";
/** A sweeper of the registry (BundleBear's "Crime"). */
const knownSweeper = "0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d";

const checksums: Record<Checksum["status"], Checksum> = {
  valid: { status: "valid", message: "Address checksum is correct." },
  missing: { status: "missing", message: "No checksum (all one case)." },
  invalid: { status: "invalid", message: "Wrong address checksum." },
};

type Row = {
  name: string;
  address?: string;
  checksum?: Checksum["status"];
  target: ChainFacts;
  level: Level;
  /** Every reason code, in the verdict's order (deciding reason first). */
  codes: string[];
  next?: string;
  headline?: string;
  /** Text one of the reasons must contain. */
  mentions?: string;
};

const rows: Row[] = [
  {
    name: "ok: an EOA with outgoing history",
    target: readableFacts("base", { nonce: 12, native: "1" }),
    level: "ok",
    codes: ["active_wallet"],
    headline: "Active wallet on Base",
    next: "Looks safe to send on Base; double-check the address with the recipient.",
    mentions: "Active wallet on Base: 12 outgoing transactions of its own.",
  },
  {
    name: "ok: a Safe with outgoing history",
    target: readableFacts("base", { kind: "safe", nonce: 1 }),
    level: "ok",
    codes: ["active_wallet"],
    headline: "Active Safe shared wallet (1 of 2 owners sign) on Base",
    mentions: "1 outgoing transaction of its own.",
  },
  {
    name: "ok: an active wallet holding native and bridged USDC",
    target: readableFacts("polygon", { nonce: 2, usdc: "5", bridged: "5" }),
    level: "ok",
    codes: ["active_wallet"],
  },
  {
    name: "caution: a fresh address",
    target: readableFacts("base"),
    level: "caution",
    codes: ["fresh_address"],
    next: "Send a small test amount first.",
  },
  {
    name: "caution: fresh and no checksum, the fresh address decides",
    checksum: "missing",
    target: readableFacts("base"),
    level: "caution",
    codes: ["fresh_address", "checksum_missing"],
    next: "Send a small test amount first.",
  },
  {
    name: "caution: an active wallet without checksum",
    checksum: "missing",
    target: readableFacts("base", { nonce: 3 }),
    level: "caution",
    codes: ["checksum_missing", "active_wallet"],
    headline: "No checksum: typos cannot be detected",
  },
  {
    name: "caution: a Safe deployed, never used (its own nonce 0)",
    target: readableFacts("base", { kind: "safe" }),
    level: "caution",
    codes: ["unused_account"],
    headline: "Safe shared wallet (1 of 2 owners sign) on Base: deployed, never used",
  },
  {
    name: "caution: an ERC-4337 account deployed, never used",
    target: readableFacts("base", { kind: "smart-account", native: "1" }),
    level: "caution",
    codes: ["unused_account"],
    mentions: "deployed, never used",
  },
  {
    name: "ok: an ERC-4337 account with UserOperations of its own",
    target: readableFacts("base", { kind: "smart-account", nonce: 1 }),
    level: "ok",
    codes: ["active_wallet"],
    headline: "Active smart wallet on Base",
  },
  {
    name: "warn: a Safe whose code rejects native transfers says so",
    target: readableFacts("base", { kind: "safe", nonce: 3, receive: "rejected" }),
    level: "warn",
    codes: ["rejects_native", "active_wallet"],
    mentions: "would revert",
  },
  {
    name: "warn: an active smart account that rejects ETH is paid in tokens",
    target: readableFacts("base", { kind: "smart-account", nonce: 2, receive: "rejected" }),
    level: "warn",
    codes: ["rejects_native", "active_wallet"],
    next: "Do not send ETH here; ask the recipient how to pay them on Base.",
    mentions: "would revert: send tokens only",
  },
  {
    // What an ERC-4337 paymaster looks like: it names its EntryPoint and refuses ETH.
    name: "warn: a never-used smart account that rejects ETH is not told to take tokens",
    target: readableFacts("base", { kind: "smart-account", receive: "rejected" }),
    level: "warn",
    codes: ["rejects_native", "unused_account"],
    headline: "Smart wallet on Base that refuses ETH, never seen in use",
    next: "Do not send here, tokens included, until the recipient shows this address can move funds on Base.",
    mentions: "an ERC-4337 paymaster answers the same way",
  },
  {
    name: "danger: wallet software's own contract (an EIP-7702 wallet delegate) is no wallet",
    address: delegate,
    target: readableFacts("base", {
      kind: "contract",
      receive: "kept",
      walletCode: { name: "MetaMask", role: "eip7702-delegate", matchedBy: "address" },
    }),
    level: "danger",
    codes: ["wallet_code"],
    headline: "MetaMask wallet code on Base, not a wallet",
    next: "Do not send: this is the code MetaMask wallets run, not a wallet; ask the recipient for their own wallet address.",
    mentions: "accounts hand control to it with EIP-7702",
  },
  {
    name: "danger: a smart-account implementation behind proxies is no wallet",
    address: "0x000100abaad02f1cfC8Bbe32bD5a564817339E72",
    target: readableFacts("base", {
      kind: "contract",
      receive: "kept",
      walletCode: { name: "Coinbase Smart Wallet", role: "implementation", matchedBy: "address" },
    }),
    level: "danger",
    codes: ["wallet_code"],
    headline: "Coinbase Smart Wallet wallet code on Base, not a wallet",
    mentions: "accounts run it behind their own addresses",
  },
  {
    // Any address: it showed itself by answering proxiableUUID() as only an implementation does.
    name: "danger: an unnamed UUPS smart-account implementation is no wallet",
    target: readableFacts("base", {
      kind: "contract",
      receive: "kept",
      walletCode: { name: null, role: "implementation", matchedBy: "proxiableUUID" },
    }),
    level: "danger",
    codes: ["wallet_code"],
    headline: "Smart wallet code on Base, not a wallet",
    next: "Do not send: this is the code smart wallets run, not a wallet; ask the recipient for their own wallet address.",
    mentions:
      "This is the contract smart wallets run on Base (accounts run it behind their own addresses), not anyone's wallet",
  },
  {
    // The verdict follows the classification alone: the address is not looked up again here.
    name: "warn: a registry wallet-code address the reader classified as a plain contract",
    address: delegate,
    target: readableFacts("base", { kind: "contract", receive: "kept" }),
    level: "warn",
    codes: ["unknown_contract"],
  },
  {
    name: "warn: a contract that rejects ETH says a native send would revert",
    target: readableFacts("base", { kind: "contract", receive: "rejected" }),
    level: "warn",
    codes: ["unknown_contract"],
    headline: "Contract on Base that rejects native transfers",
    mentions: "A native send to it would revert.",
  },
  {
    name: "caution: a contract that forwards every deposit to one collector is a deposit address",
    target: readableFacts("base", {
      kind: "contract",
      receive: "forwarded",
      forwardedTo: "0x00000000000000000000000000000000C0FFEE00",
    }),
    level: "caution",
    codes: ["deposit_forwarder"],
    headline: "Deposit address (forwards deposits) on Base",
    next: "Send only the asset and network the exchange named for this deposit address (Base).",
    mentions: "in full to one collector (0x00000000000000000000000000000000C0FFEE00)",
  },
  {
    // A used wallet does not pass deposits on: its code was replaced (a drainer's upgrade).
    name: "danger: a used smart account whose code passes every deposit on",
    target: readableFacts("base", {
      kind: "smart-account",
      nonce: 4,
      receive: "forwarded",
      forwardedTo: "0x00000000000000000000000000000000C0FFEE00",
    }),
    level: "danger",
    codes: ["wallet_forwards_deposits", "active_wallet"],
    headline: "Anything sent here is passed on at once on Base",
    next: "Do not send: what arrives here goes straight on to another address; warn the owner that their wallet may be compromised.",
    mentions: "in full to another address (0x00000000000000000000000000000000C0FFEE00)",
  },
  {
    name: "danger: a Safe whose code passes every deposit on, never used",
    target: readableFacts("base", { kind: "safe", nonce: 0, receive: "forwarded" }),
    level: "danger",
    codes: ["wallet_forwards_deposits", "unused_account"],
    mentions: "passed a simulated ETH deposit on in full to another address:",
  },
  {
    // It forwards the deposit as a deposit address does; the registry knows it as a thief's.
    name: "danger: a known sweeper's own contract is a thief's, not an exchange's deposit address",
    address: knownSweeper,
    target: readableFacts("base", {
      kind: "contract",
      receive: "forwarded",
      forwardedTo: "0x00000000000000000000000000000000C0FFEE00",
      knownSweeper: { label: "Crime" },
    }),
    level: "danger",
    codes: ["sweeper_contract"],
    headline: "Contract known to steal deposits on Base",
    next: "Do not send: this contract passes what it receives to a thief; ask the recipient for their own wallet address.",
    mentions: "a contract known to steal deposits",
  },
  {
    name: "danger: a known sweeper's address where it has no code is no test-amount address",
    address: knownSweeper,
    target: readableFacts("arbitrum"),
    level: "danger",
    codes: ["sweeper_contract_elsewhere"],
    headline: "Address of a contract known to steal deposits",
    next: "Do not send on any network: this address belongs to a contract that steals deposits.",
  },
  {
    name: "danger: Permit2, an ownerless protocol contract, is named (do not send)",
    address: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
    target: readableFacts("ethereum", { kind: "contract", receive: "rejected" }),
    level: "danger",
    codes: ["protocol_contract"],
    headline: "Permit2 on Ethereum: a protocol contract, not a wallet",
    next: "Do not send: Permit2 cannot return funds to anyone.",
    mentions: "Tokens sent to it stay there for good",
  },
  {
    name: "danger: an EntryPoint says a native send is the sender's own deposit, tokens lost",
    address: "0x0000000071727De22E5E9d8BAf0edAc6f37da032",
    target: readableFacts("base", { kind: "contract", receive: "kept" }),
    level: "danger",
    codes: ["protocol_contract"],
    // Not "cannot return funds to anyone": the sender can withdraw a native send's deposit.
    next: "Do not send to ERC-4337 EntryPoint v0.7 to pay someone: the recipient gets nothing. Tokens sent to it are lost; ETH only becomes your own gas deposit there.",
    mentions: "credited to the sender's own gas deposit",
  },
  {
    name: "warn: the OP Mainnet L1StandardBridge says a native send is bridged to the sender",
    address: "0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1",
    target: readableFacts("ethereum", { kind: "contract", receive: "forwarded" }),
    level: "warn",
    codes: ["protocol_contract"],
    next: "Do not send to OP Mainnet L1StandardBridge to pay someone: the recipient gets nothing; use their own address.",
    mentions: "bridged to the sender's own address on OP Mainnet",
  },
  {
    name: "danger: WETH is a token contract, and says a native send is wrapped for the sender",
    address: "0x4200000000000000000000000000000000000006",
    target: readableFacts("base", { kind: "token", kindLabel: "ERC-20 token contract (WETH)" }),
    level: "danger",
    codes: ["token_contract", "protocol_contract"],
    mentions: "the sender receives the same amount of WETH",
  },
  {
    name: "caution: a registry address with no code here is judged by what is there",
    address: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
    target: readableFacts("ethereum"),
    level: "caution",
    codes: ["fresh_address"],
  },
  {
    name: "warn: an NFT collection",
    target: readableFacts("base", { kind: "nft" }),
    level: "warn",
    codes: ["nft_contract"],
    headline: "NFT collection on Base, not a wallet",
  },
  {
    name: "danger: an EIP-7702 account on a known sweeper",
    target: readableFacts("base", {
      kind: "eip7702-delegated",
      nonce: 40,
      delegateCategory: "sweeper",
      receive: "kept",
    }),
    level: "danger",
    codes: ["eip7702_sweeper", "active_wallet"],
    mentions:
      "This wallet has handed control to a contract known to steal deposits on Base: anything sent to it is passed straight on to someone else",
  },
  {
    name: "danger: an EIP-7702 account whose unknown delegate forwards deposits",
    target: readableFacts("base", {
      kind: "eip7702-delegated",
      nonce: 4,
      delegateCategory: "unknown",
      receive: "forwarded",
    }),
    level: "danger",
    codes: ["eip7702_sweeper", "active_wallet"],
  },
  {
    name: "danger: OP Mainnet's L1StandardBridge (Ethereum) on Base, where it has no code",
    address: "0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1",
    target: readableFacts("base"),
    level: "danger",
    codes: ["protocol_contract_elsewhere"],
    headline: "OP Mainnet L1StandardBridge on Ethereum, not a wallet",
    next: "Do not send: this is OP Mainnet L1StandardBridge's address on Ethereum; ask the recipient for their own wallet address on Base.",
  },
  {
    name: "caution: a protocol contract's address on a chain its entry names but where it has no code is no 'elsewhere'",
    address: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
    target: readableFacts("ethereum"),
    level: "caution",
    codes: ["fresh_address"],
  },
  {
    name: "danger: Ethereum's WETH address (token list) on Base, where it has no code",
    address: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
    target: readableFacts("base"),
    level: "danger",
    codes: ["listed_token_contract"],
    headline: "The WETH token contract on Ethereum, not a wallet",
    next: "Do not send: this is the WETH token contract on Ethereum; ask the recipient for their wallet address.",
  },
  {
    name: "danger: a listed token where the chain could not be read is still a token",
    address: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
    target: unreadableFacts("ethereum"),
    level: "danger",
    codes: ["listed_token_contract", "chain_unavailable"],
    headline: "The DAI token contract on Ethereum, not a wallet",
  },
  {
    name: "danger: a listed token read as a token here gets the kind's reason, not a second one",
    address: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
    target: readableFacts("ethereum", { kind: "token", kindLabel: "ERC-20 token contract (DAI)" }),
    level: "danger",
    codes: ["token_contract"],
  },
  {
    // Multicall3 calls whatever anyone asks, as the account: a token sent here is anyone's.
    name: "danger: an EIP-7702 account on Multicall3, whose missing receive is not the point",
    target: readableFacts("base", {
      kind: "eip7702-delegated",
      nonce: 2,
      delegate: "0xcA11bde05977b3631167028862bE2a173976CA11",
      delegateCategory: "helper",
      receive: "rejected",
    }),
    level: "danger",
    codes: ["eip7702_open_delegate", "active_wallet"],
    headline: "Anyone can take what is sent here on Base",
  },
  {
    name: "ok: an active EIP-7702 account on a known wallet delegate",
    target: readableFacts("base", {
      kind: "eip7702-delegated",
      nonce: 5,
      delegate,
      delegateCategory: "wallet",
      kindLabel: "MetaMask smart account (EIP-7702)",
      vendor: "MetaMask",
      receive: "kept",
    }),
    level: "ok",
    codes: ["active_wallet"],
    headline: "Active MetaMask smart wallet on Base",
  },
  {
    name: "caution: an unknown 7702 delegate whose simulation did not run is never ok",
    target: readableFacts("base", {
      kind: "eip7702-delegated",
      nonce: 5,
      delegateCategory: "unknown",
      receive: "unavailable",
    }),
    level: "caution",
    codes: ["eip7702_unknown_delegate", "active_wallet"],
    mentions: "the test deposit could not be run",
  },
  {
    name: "caution: an active wallet with an unreadable USDT balance names what is unknown",
    target: { ...readableFacts("base", { nonce: 3 }), usdt: null },
    level: "caution",
    codes: ["unclassified", "active_wallet"],
    mentions: "the USDT balance",
  },
  {
    name: "caution: receive-only (funds but never sent)",
    target: readableFacts("base", { usdc: "250" }),
    level: "caution",
    codes: ["receive_only"],
    mentions: "exchange deposit address",
  },
  {
    name: "caution: a wallet run by an unknown contract says so in plain words (the delegate stays in the facts)",
    target: readableFacts("base", {
      kind: "eip7702-delegated",
      nonce: 5,
      delegate,
      delegateCategory: "unknown",
      receive: "kept",
    }),
    level: "caution",
    codes: ["eip7702_unknown_delegate", "active_wallet"],
    mentions:
      "This wallet has handed control to a contract presend does not recognise on Base; a test deposit was kept.",
  },
  {
    name: "caution: an EIP-7702 delegation without a known delegate",
    target: readableFacts("base", { kind: "eip7702-delegated", nonce: 5 }),
    level: "caution",
    codes: ["eip7702_unknown_delegate", "active_wallet"],
    mentions: "a contract presend does not recognise",
  },
  {
    name: "caution: only bridged USDC on the target",
    target: readableFacts("arbitrum", { nonce: 7, bridged: "40" }),
    level: "caution",
    codes: ["bridged_usdc_only", "active_wallet"],
    mentions: "USDC.e",
  },
  {
    name: "caution: the target chain could not be read",
    target: unreadableFacts("base", "HTTP 503"),
    level: "caution",
    codes: ["chain_unavailable"],
    headline: "Could not verify on Base",
    mentions: "Could not verify: Base could not be read (HTTP 503).",
  },
  {
    name: "caution: an unreadable chain without an error text",
    target: { ...unreadableFacts("optimism"), error: undefined },
    level: "caution",
    codes: ["chain_unavailable"],
    mentions: "(unknown error)",
  },
  {
    name: "caution: unreadable and no checksum, the unreadable chain decides",
    checksum: "missing",
    target: unreadableFacts("base"),
    level: "caution",
    codes: ["chain_unavailable", "checksum_missing"],
    headline: "Could not verify on Base",
  },
  {
    name: "caution: readable but no kind",
    target: { ...readableFacts("base", { nonce: 9 }), kind: null },
    level: "caution",
    codes: ["unclassified"],
  },
  {
    name: "caution: a wallet whose nonce is unknown",
    target: { ...readableFacts("base"), outgoingTxs: null },
    level: "caution",
    codes: ["unclassified"],
  },
  {
    name: "warn: a contract that is not a known wallet",
    target: readableFacts("base", { kind: "contract", nonce: 1, native: "3" }),
    level: "warn",
    codes: ["unknown_contract"],
  },
  {
    name: "danger: a token contract on the target",
    target: readableFacts("base", { kind: "token", nonce: 1 }),
    level: "danger",
    codes: ["token_contract"],
    next: "Do not send: this is a token contract on Base, not a wallet.",
  },
  {
    name: "danger: the USDC contract on Base",
    address: chains.base.usdc.address,
    target: readableFacts("base", { kind: "token", nonce: 1, usdc: "12" }),
    level: "danger",
    codes: ["stablecoin_contract"],
    next: "Do not send: this is the USDC contract on Base.",
  },
  {
    name: "danger: a stablecoin contract of another chain, even where it has no code",
    address: chains.ethereum.usdt.address,
    target: readableFacts("arbitrum"),
    level: "danger",
    codes: ["stablecoin_contract"],
    next: "Do not send: this is the USDT contract on Ethereum.",
  },
  {
    name: "danger: a stablecoin contract beats everything",
    address: chains.base.usdcBridged?.address.toLowerCase(),
    checksum: "missing",
    target: readableFacts("base", { kind: "token", nonce: 1 }),
    level: "danger",
    codes: ["stablecoin_contract", "checksum_missing"],
    next: "Do not send: this is the USDbC contract on Base.",
  },
  {
    name: "danger: a stablecoin contract whose chain could not be read",
    address: chains.polygon.usdc.address,
    target: unreadableFacts("polygon"),
    level: "danger",
    codes: ["stablecoin_contract", "chain_unavailable"],
  },
  {
    name: "danger: the zero address",
    address: "0x0000000000000000000000000000000000000000",
    target: readableFacts("ethereum", { native: "11000" }),
    level: "danger",
    codes: ["zero_address"],
  },
  {
    name: "danger: the zero address on an unreadable chain",
    address: "0x0000000000000000000000000000000000000000",
    target: unreadableFacts("ethereum"),
    level: "danger",
    codes: ["zero_address", "chain_unavailable"],
  },
  {
    name: "danger: the 0x…dEaD burn address",
    address: "0x000000000000000000000000000000000000dEaD",
    target: readableFacts("base", { native: "2" }),
    level: "danger",
    codes: ["burn_address"],
    next: "Do not send: this is a burn address.",
  },
  {
    name: "danger: the 0xdead…42069 burn address",
    address: "0xdead000000000000000042069420694206942069",
    checksum: "missing",
    target: readableFacts("base"),
    level: "danger",
    codes: ["burn_address", "checksum_missing"],
  },
  {
    name: "danger: the ecRecover precompile",
    address: "0x0000000000000000000000000000000000000001",
    target: readableFacts("optimism", { native: "0.1" }),
    level: "danger",
    codes: ["precompile"],
    mentions: "ecRecover precompile",
  },
  {
    name: "danger: the P256VERIFY precompile",
    address: "0x0000000000000000000000000000000000000100",
    target: readableFacts("base"),
    level: "danger",
    codes: ["precompile"],
    mentions: "P256VERIFY",
  },
  {
    name: "danger: a wrong checksum, whatever the facts",
    checksum: "invalid",
    target: readableFacts("base", { nonce: 40 }),
    level: "danger",
    codes: ["checksum_invalid", "active_wallet"],
  },
];

describe("decideVerdict", () => {
  it.each(rows)("$name", (row) => {
    const verdict = decideVerdict({
      address: row.address ?? wallet,
      checksum: checksums[row.checksum ?? "valid"],
      target: row.target,
    });
    expect(verdict.level).toBe(row.level);
    expect(verdict.reasons.map((reason) => reason.code)).toEqual(row.codes);
    expect(verdict.reasons[0]?.level).toBe(row.level);
    if (row.next) expect(verdict.next).toBe(row.next);
    if (row.headline) expect(verdict.headline).toBe(row.headline);
    if (row.mentions) {
      const mentions = row.mentions;
      expect(verdict.reasons.some((reason) => reason.message.includes(mentions))).toBe(true);
    }
  });

  it("covers every level", () => {
    expect(new Set(rows.map((row) => row.level))).toEqual(
      new Set(["ok", "caution", "warn", "danger"]),
    );
  });

  const unreadableCases = chainNames.flatMap((name) =>
    checksumStatuses.map((status) => [name, status] as const),
  );
  it.each(unreadableCases)("an unreadable %s is never ok (checksum %s)", (name, status) => {
    const verdict = decideVerdict({
      address: wallet,
      checksum: checksums[status],
      target: unreadableFacts(name),
    });
    expect(verdict.level).not.toBe("ok");
    expect(verdict.reasons.length).toBeGreaterThan(0);
    expect(verdict.gas.summary).toBe(
      `Gas cost on ${chains[name].label} is unknown: the chain could not be read.`,
    );
  });

  it("carries the gas summary of the target chain", () => {
    const verdict = decideVerdict({
      address: wallet,
      checksum: checksums.valid,
      target: readableFacts("base", { nonce: 1 }),
    });
    expect(verdict.gas.summary).toBe(
      "Sending ETH costs about 0.000031 ETH on Base including the L1 data fee; a token transfer about 0.000075 ETH.",
    );
  });

  it("an L1 data fee Base's GasPriceOracle did not answer: caution, no worse, and the cost says so", () => {
    const verdict = decideVerdict({
      address: wallet,
      checksum: checksums.valid,
      target: readableFacts("base", { nonce: 1, l1DataFeeWei: null }),
    });
    expect(verdict.level).toBe("caution");
    expect(verdict.reasons.map((reason) => [reason.code, reason.level])).toEqual([
      ["unclassified", "caution"],
      ["active_wallet", "ok"],
    ]);
    expect(verdict.reasons[0]?.message).toContain("the L1 data fee unknown");
    expect(verdict.gas.summary).toContain("0.000021 ETH on Base, not counting the L1 data fee");
  });
});
