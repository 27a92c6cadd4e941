import {
  type ChainInfo,
  type ChainName,
  chains,
  gasPriceOracleAddress,
  multicall3Address,
} from "@presend/shared/chains/chains";
import {
  type Address,
  concat,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  multicall3Abi,
  numberToHex,
  parseAbi,
  prepareEncodeFunctionData,
  stringToHex,
} from "viem";
import {
  entryPoint06Address,
  entryPoint07Address,
  entryPoint08Address,
} from "viem/account-abstraction";
import { typicalTransfers } from "./typicalTransfers";

export type JsonRpcRequest = {
  jsonrpc: "2.0";
  id: number;
  method: string;
  params: unknown[];
};

/** The ERC-4337 EntryPoints presend recognises, by version (their canonical addresses, from viem). */
export const entryPoints = {
  "v0.6": entryPoint06Address,
  "v0.7": entryPoint07Address,
  "v0.8": entryPoint08Address,
} as const satisfies Record<string, Address>;
export type EntryPointVersion = keyof typeof entryPoints;

/**
 * The largest JSON-RPC batch presend sends: a common cap of public endpoints. A check's facts (7
 * entries) and its history's log queries (2, and 1 with a sender) share one batch within it.
 */
export const maxBatchEntries = 10;

/** Storage slot of an ERC-1967 proxy's implementation: keccak256("eip1967.proxy.implementation") - 1. */
export const eip1967ImplementationSlot =
  "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";

/** Native amount of the receive simulation, in wei (0.000001 of the native coin). */
export const receiveSimulationWei = 1_000_000_000_000n;
/**
 * The simulated sender: an address nobody holds a key for, given a balance by the state override
 * only inside the simulation.
 */
export const receiveSimulationSender = getAddress(
  `0x${keccak256(stringToHex("presend receive simulation sender")).slice(-40)}`,
);

export const probeAbi = parseAbi([
  "function getThreshold() view returns (uint256)",
  "function getOwners() view returns (address[])",
  "function nonce() view returns (uint256)",
  "function masterCopy() view returns (address)",
  "function entryPoint() view returns (address)",
  "function entrypoint() view returns (address)",
  "function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)",
  "function accountId() view returns (string)",
  "function supportsInterface(bytes4 interfaceId) view returns (bool)",
  "function symbol() view returns (string)",
  "function getNonce(address sender, uint192 key) view returns (uint256)",
  "function proxiableUUID() view returns (bytes32)",
]);

/** Multicall3's own block getters (viem's multicall3Abi lists only the calls it uses). */
export const multicall3GettersAbi = parseAbi([
  "function getChainId() view returns (uint256)",
  "function getBlockNumber() view returns (uint256)",
  "function getEthBalance(address addr) view returns (uint256)",
]);

/** The OP-stack GasPriceOracle's price of a transaction's L1 data fee, from its unsigned bytes. */
export const gasPriceOracleAbi = parseAbi([
  "function getL1Fee(bytes unsignedTransaction) view returns (uint256)",
]);

/** ERC-165 interface ids of the NFT standards. */
export const nftInterfaces = { erc721: "0x80ac58cd", erc1155: "0xd9b67a26" } as const;

export type FactsSubcallKey =
  | "chainId"
  | "blockNumber"
  | "nativeBalance"
  | "usdc"
  | "usdt"
  | "usdcBridged"
  | "threshold"
  | "owners"
  | "safeNonce"
  | "masterCopy"
  | "entryPoint"
  | "entrypoint"
  | "accountId"
  | "erc1271"
  | "erc721"
  | "erc1155"
  | "totalSupply"
  | "decimals"
  | "symbol"
  | "proxiableUUID"
  | "entryPointNonceV06"
  | "entryPointNonceV07"
  | "entryPointNonceV08"
  | "l1FeeNativeTransfer"
  | "l1FeeTokenTransfer"
  | "probes";

/**
 * The behaviour probes, the sub-calls that ask the address itself, in the order they sit in the
 * inner aggregate3 call (the `probes` sub-call of the outer one).
 */
export const probeKeys = [
  "threshold",
  "owners",
  "safeNonce",
  "masterCopy",
  "entryPoint",
  "entrypoint",
  "accountId",
  "erc1271",
  "erc721",
  "erc1155",
  "totalSupply",
  "decimals",
  "symbol",
  "proxiableUUID",
] as const satisfies readonly FactsSubcallKey[];
export type ProbeKey = (typeof probeKeys)[number];
/** The sub-calls of the outer aggregate3 call. */
export type OuterSubcallKey = Exclude<FactsSubcallKey, ProbeKey>;

/** What each Multicall3 sub-call asks, in the order they sit in the outer aggregate3 call. */
export type FactsSubcall = { key: OuterSubcallKey; target: Address; callData: Hex };

/**
 * Ids of the batch entries; the parser finds answers by id because servers may reorder them. The
 * chain id, the head and the native balance are read inside the aggregate3 call (Multicall3's own
 * getters), so a check's history entries fit beside the facts in one batch of at most 10.
 */
export const factsBatchIds = {
  code: 2,
  nonce: 3,
  gasPrice: 5,
  multicall: 7,
  implementation: 8,
  delegateCodeHash: 9,
  receiveSimulation: 10,
} as const;

// Selectors are hashed once here, not on every check (viem's prepared encoders).
const balanceOfCall = prepareEncodeFunctionData({ abi: erc20Abi, functionName: "balanceOf" });
const getNonceCall = prepareEncodeFunctionData({ abi: probeAbi, functionName: "getNonce" });
const getEthBalanceCall = prepareEncodeFunctionData({
  abi: multicall3Abi,
  functionName: "getEthBalance",
});
const getChainIdData = encodeFunctionData({
  abi: multicall3GettersAbi,
  functionName: "getChainId",
});
const getBlockNumberData = encodeFunctionData({
  abi: multicall3GettersAbi,
  functionName: "getBlockNumber",
});
const aggregate3Call = prepareEncodeFunctionData({
  abi: multicall3Abi,
  functionName: "aggregate3",
});
const probeData = {
  threshold: encodeFunctionData({ abi: probeAbi, functionName: "getThreshold" }),
  owners: encodeFunctionData({ abi: probeAbi, functionName: "getOwners" }),
  safeNonce: encodeFunctionData({ abi: probeAbi, functionName: "nonce" }),
  // A Safe proxy answers this itself with the singleton it runs (the code a redeployment needs).
  masterCopy: encodeFunctionData({ abi: probeAbi, functionName: "masterCopy" }),
  entryPoint: encodeFunctionData({ abi: probeAbi, functionName: "entryPoint" }),
  // Kernel and other ERC-7579 accounts spell it in lower case.
  entrypoint: encodeFunctionData({ abi: probeAbi, functionName: "entrypoint" }),
  // A contract wallet answers ERC-1271 with a magic value or 0xffffffff; other contracts revert.
  erc1271: encodeFunctionData({
    abi: probeAbi,
    functionName: "isValidSignature",
    args: [`0x${"00".repeat(32)}`, `0x${"00".repeat(65)}`],
  }),
  accountId: encodeFunctionData({ abi: probeAbi, functionName: "accountId" }),
  erc721: encodeFunctionData({
    abi: probeAbi,
    functionName: "supportsInterface",
    args: [nftInterfaces.erc721],
  }),
  erc1155: encodeFunctionData({
    abi: probeAbi,
    functionName: "supportsInterface",
    args: [nftInterfaces.erc1155],
  }),
  totalSupply: encodeFunctionData({ abi: erc20Abi, functionName: "totalSupply" }),
  decimals: encodeFunctionData({ abi: erc20Abi, functionName: "decimals" }),
  symbol: encodeFunctionData({ abi: probeAbi, functionName: "symbol" }),
  // A UUPS implementation (OpenZeppelin's, Solady's) answers with the ERC-1967 implementation
  // slot only when called on itself: through a proxy, or on an EIP-7702 account running it, its
  // `notDelegated` guard reverts. So it tells an account's implementation from the account.
  proxiableUUID: encodeFunctionData({ abi: probeAbi, functionName: "proxiableUUID" }),
};

/** The keys of the sub-calls, in the order they sit in the outer aggregate3 call on `chain`. */
export function factsSubcallKeys(chain: ChainInfo): OuterSubcallKey[] {
  return [
    "chainId",
    "blockNumber",
    "nativeBalance",
    "usdc",
    "usdt",
    ...(chain.usdcBridged ? (["usdcBridged"] as const) : []),
    "entryPointNonceV06",
    "entryPointNonceV07",
    "entryPointNonceV08",
    ...(chain.opStack ? (["l1FeeNativeTransfer", "l1FeeTokenTransfer"] as const) : []),
    "probes",
  ];
}

/**
 * The sub-calls of the single aggregate3 eth_call: stablecoin balances, EntryPoint nonces, on
 * OP-stack chains the L1 data fee of the two sends presend prices, then the behaviour probes in an inner aggregate3 of their own.
 */
export function factsSubcalls(
  address: Address,
  chain: ChainInfo,
  options: { lean?: boolean } = {},
): FactsSubcall[] {
  const balanceOf = encodeFunctionData({ ...balanceOfCall, args: [address] });
  const entryPointNonce = (entryPoint: Address) => ({
    target: entryPoint,
    callData: encodeFunctionData({ ...getNonceCall, args: [address, 0n] }),
  });
  // Probes against the address itself. On an EOA they return empty data; a revert stays inside
  // aggregate3 (allowFailure). A call that uses up all its gas instead (an invalid opcode, as in
  // a precompile given input it refuses or an EIP-7702 designator run as code; a loop) leaves
  // the caller only 1/64 of what it had, so a few such probes side by side would run the whole
  // read out of gas. Together in an inner aggregate3, they can cost that call at most, and the
  // outer one still answers the chain id, head and balances.
  const probes = encodeFunctionData({
    ...aggregate3Call,
    args: [
      options.lean
        ? []
        : probeKeys.map((key) => ({
            target: address,
            allowFailure: true,
            callData: probeData[key],
          })),
    ],
  });
  const transfers = typicalTransfers(address, chain);
  const l1Fee = (unsignedTransaction: Hex) => ({
    target: gasPriceOracleAddress,
    callData: encodeFunctionData({
      abi: gasPriceOracleAbi,
      functionName: "getL1Fee",
      args: [unsignedTransaction],
    }),
  });
  const targets: Record<OuterSubcallKey, { target: Address; callData: Hex }> = {
    // Multicall3's own getters: the chain id guards against an endpoint configured for the wrong
    // chain, and head and balance are read at the same block as every probe.
    chainId: { target: multicall3Address, callData: getChainIdData },
    blockNumber: { target: multicall3Address, callData: getBlockNumberData },
    nativeBalance: {
      target: multicall3Address,
      callData: encodeFunctionData({ ...getEthBalanceCall, args: [address] }),
    },
    usdc: { target: chain.usdc.address, callData: balanceOf },
    usdt: { target: chain.usdt.address, callData: balanceOf },
    usdcBridged: { target: chain.usdcBridged?.address ?? chain.usdc.address, callData: balanceOf },
    // The account's own UserOperations, as each EntryPoint counts them (key 0). Where an
    // EntryPoint is not deployed the call returns empty data and counts for nothing.
    entryPointNonceV06: entryPointNonce(entryPoints["v0.6"]),
    entryPointNonceV07: entryPointNonce(entryPoints["v0.7"]),
    entryPointNonceV08: entryPointNonce(entryPoints["v0.8"]),
    // Every OP-stack transaction pays this on top of gas x price, often as much again on Base.
    l1FeeNativeTransfer: l1Fee(transfers.nativeTransfer),
    l1FeeTokenTransfer: l1Fee(transfers.tokenTransfer),
    probes: { target: multicall3Address, callData: probes },
  };
  return factsSubcallKeys(chain).map((key) => ({ key, ...targets[key] }));
}

/**
 * Init code run by an eth_call without `to` (nothing is deployed): copies the first 23 bytes of
 * the address's code (an EIP-7702 designator is 0xef0100 || delegate), takes the delegate from
 * it and returns EXTCODEHASH(delegate). A node runs it without state overrides, so the delegate's
 * code hash is known in the same request that finds the delegate.
 */
export function delegateCodeHashProbe(address: Address): Hex {
  return concat([
    "0x601760006000", // PUSH1 23, PUSH1 0, PUSH1 0
    "0x73", // PUSH20 address
    address.toLowerCase() as Hex,
    "0x3c", // EXTCODECOPY(address, 0, 0, 23)
    "0x600051", // MLOAD(0)
    "0x60481c", // SHR 72: the 23 designator bytes, right-aligned
    "0x73ffffffffffffffffffffffffffffffffffffffff16", // AND: the 20-byte delegate
    "0x3f", // EXTCODEHASH
    "0x60005260206000f3", // MSTORE(0), RETURN(0, 32)
  ]);
}

export type ReceiveSimulationCall = { from?: Address; to: Address; value?: Hex; data?: Hex };
export type SimulateV1Params = [
  {
    blockStateCalls: {
      stateOverrides: Record<Address, { balance: Hex }>;
      calls: ReceiveSimulationCall[];
    }[];
    traceTransfers: boolean;
    validation: boolean;
  },
  BlockParameter,
];

/** The block a read is made at: a number (hex), or the node's own head. */
export type BlockParameter = Hex | "latest";

/** The block parameter of a read pinned to `block`, or the node's head when there is no pin. */
export const blockParameter = (block: bigint | undefined): BlockParameter =>
  block === undefined ? "latest" : numberToHex(block);

/**
 * The receive simulation as the send the person is about to make: `eth_simulateV1` runs, in one
 * simulated block, a balance read, a plain native transfer of `receiveSimulationWei` FROM THE
 * SENDER ITSELF (an EOA: msg.sender == tx.origin, no code at msg.sender) to the address, and the
 * balance read again. The sender gets its funds from a state override, so no real balance is
 * needed; `traceTransfers` makes the node log every native transfer, which names where a
 * forwarded deposit went.
 * @example receiveSimulationParams(recipient)[0].blockStateCalls[0].calls[1].value // "0xe8d4a51000"
 */
export function receiveSimulationParams(
  address: Address,
  sender: Address = receiveSimulationSender,
  at: BlockParameter = "latest",
): SimulateV1Params {
  const readBalance: ReceiveSimulationCall = {
    to: multicall3Address,
    data: encodeFunctionData({ ...getEthBalanceCall, args: [address] }),
  };
  return [
    {
      blockStateCalls: [
        {
          stateOverrides: { [sender]: { balance: numberToHex(10n ** 18n) } },
          calls: [
            readBalance,
            { from: sender, to: address, value: numberToHex(receiveSimulationWei) },
            readBalance,
          ],
        },
      ],
      traceTransfers: true,
      validation: false,
    },
    at,
  ];
}

export type FactsBatchOptions = {
  /**
   * Who sends: the receive simulation's transfer comes from this address (a plain EOA nobody
   * holds a key for when absent).
   */
  sender?: Address;
  /**
   * Without the two answers the address itself decides the size of: the behaviour probes (an
   * empty inner aggregate3) and the receive simulation (its logs). For asking again after an
   * answer over the size bound, so a contract cannot make itself uncheckable by answering with
   * megabytes; what those two would have told stays unknown.
   */
  lean?: boolean;
  /**
   * The block every entry reads at. Load balancers send consecutive calls, and some the entries
   * of one batch, to nodes at different heights: at one number each answer is of the same block,
   * and a node that has not reached it says so ("header not found") instead of answering from an
   * older one. Absent: each entry at its node's head ("latest").
   */
  block?: bigint;
};

/**
 * The exact JSON-RPC batch (one HTTP request, at most `maxBatchEntries` entries) the chain reader
 * sends for one address on one chain.
 * @example await fetch(rpcUrl, { method: "POST", body: JSON.stringify(buildFactsBatch(address, "base")) });
 */
export function buildFactsBatch(
  address: Address,
  chainName: ChainName,
  options: FactsBatchOptions = {},
): JsonRpcRequest[] {
  const target = getAddress(address);
  const { aggregate, codeHashProbe } = callDataFor(target, chainName, options.lean === true);
  const request = (id: number, method: string, params: unknown[]): JsonRpcRequest => ({
    jsonrpc: "2.0",
    id,
    method,
    params,
  });
  const at = blockParameter(options.block);
  return [
    request(factsBatchIds.code, "eth_getCode", [target, at]),
    request(factsBatchIds.nonce, "eth_getTransactionCount", [target, at]),
    request(factsBatchIds.gasPrice, "eth_gasPrice", []),
    // One aggregate3 eth_call instead of one eth_call per probe (chain id, head and native
    // balance included, through Multicall3's getters): reverts come back as
    // success=false inside a successful answer, so a JSON-RPC error on that entry means the
    // endpoint itself failed.
    request(factsBatchIds.multicall, "eth_call", [{ to: multicall3Address, data: aggregate }, at]),
    // The last three may fail on their own (an endpoint without eth_simulateV1 or deployless
    // calls): the facts they feed are then unknown, and the rest of the batch stands.
    request(factsBatchIds.implementation, "eth_getStorageAt", [
      target,
      eip1967ImplementationSlot,
      at,
    ]),
    request(factsBatchIds.delegateCodeHash, "eth_call", [{ data: codeHashProbe }, at]),
    ...(options.lean
      ? []
      : [
          request(
            factsBatchIds.receiveSimulation,
            "eth_simulateV1",
            receiveSimulationParams(target, options.sender && getAddress(options.sender), at),
          ),
        ]),
  ];
}

type CallData = { aggregate: Hex; codeHashProbe: Hex };

// ABI-encoding two dozen sub-calls costs about a millisecond per check, as much as the local round
// trip. The encodings depend on the address only where it is written, so each chain's are
// encoded once with a placeholder address and the real one is written into a copy.
const placeholder = "0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e" as const;
const templates = new Map<string, CallData>();

function encodeCallData(address: Address, chainName: ChainName, lean = false): CallData {
  const chain = chains[chainName];
  const aggregate = encodeFunctionData({
    ...aggregate3Call,
    args: [
      factsSubcalls(address, chain, { lean }).map((call) => ({
        target: call.target,
        allowFailure: true,
        callData: call.callData,
      })),
    ],
  });
  return { aggregate, codeHashProbe: delegateCodeHashProbe(address) };
}

function callDataFor(address: Address, chainName: ChainName, lean: boolean): CallData {
  const key = lean ? `${chainName}:lean` : chainName;
  let template = templates.get(key);
  if (!template) {
    template = encodeCallData(placeholder, chainName, lean);
    templates.set(key, template);
  }
  const hex = address.slice(2).toLowerCase();
  const fill = (data: Hex) => data.replaceAll(placeholder.slice(2), hex) as Hex;
  return {
    aggregate: fill(template.aggregate),
    codeHashProbe: fill(template.codeHashProbe),
  };
}

/** The call data encoded directly, without the template (tests compare the two). */
export const encodeCallDataDirectly = encodeCallData;
