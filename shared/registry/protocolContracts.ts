import {
  entryPoint06Address,
  entryPoint07Address,
  entryPoint08Address,
} from "viem/account-abstraction";
import { base, optimism } from "viem/chains";
import { type ChainName, chainNames, chains, multicall3Address } from "../chains/chains";

/**
 * What a protocol contract is to someone about to send to it. `lost`: nobody can ever return what
 * is sent (no owner, no function that pays it out to the sender); `elsewhere`: a native send from
 * a wallet ends up somewhere else than here (bridged, wrapped or deposited for the sender), and
 * tokens sent are lost.
 */
export type ProtocolOutcome = "lost" | "elsewhere";

export type ProtocolContract = {
  name: string;
  /** Who published it (or, for a wrapped native token, what it is): shown after the name. */
  operator: string;
  address: string;
  chains: readonly ChainName[];
  outcome: ProtocolOutcome;
  /** What a plain native send to it does, in one sentence. */
  nativeSend: string;
  /** What an ERC-20 transfer to it does, in one sentence. */
  tokenSend: string;
  /**
   * The next step, where the one its outcome gives would be untrue for this contract (a "lost"
   * contract that keeps a native send as the sender's own can return that to the sender).
   */
  next?: string;
  /** Where the address comes from (an npm package of the deployment's authors). */
  source: string;
};

const everyChain = chainNames;
// Safe 1.3.0 sits at its canonical addresses where the chain accepts pre-EIP-155 transactions,
// and at the EIP-155 deployment's addresses elsewhere.
const canonicalSafe130: readonly ChainName[] = ["ethereum", "arbitrum", "polygon"];
const eip155Safe130: readonly ChainName[] = ["base", "optimism"];
const tokensLost =
  "Tokens sent to it stay there for good: it has no owner and no way to return them.";
const tokensTakenByAnyone =
  "Tokens sent to it can be taken by anyone who calls it next: they are lost to the sender.";

const permit2: ProtocolContract = {
  name: "Permit2",
  operator: "Uniswap",
  address: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
  chains: everyChain,
  outcome: "lost",
  nativeSend: "It has no receive function: a native send reverts.",
  tokenSend: tokensLost,
  source: "npm @uniswap/permit2-sdk 1.4.0 (PERMIT2_ADDRESS)",
};

// Uniswap's routers keep nothing for anyone: they accept the native coin only from WETH while
// unwrapping, and tokens left in them are swept by the next trade.
const routerNative =
  "It accepts the native coin only from WETH during a trade: a plain send reverts.";
const uniswapV2Router = (address: string, chains: readonly ChainName[]): ProtocolContract => ({
  name: "Uniswap V2 Router02",
  operator: "Uniswap",
  address,
  chains,
  outcome: "lost",
  nativeSend: routerNative,
  tokenSend: tokensTakenByAnyone,
  source: "npm @uniswap/sdk-core 7.19.4 (V2_ROUTER_ADDRESSES)",
});
const swapRouter02 = (address: string, chains: readonly ChainName[]): ProtocolContract => ({
  name: "Uniswap SwapRouter02",
  operator: "Uniswap",
  address,
  chains,
  outcome: "lost",
  nativeSend: routerNative,
  tokenSend: tokensTakenByAnyone,
  source: "npm @uniswap/sdk-core 7.19.4 (SWAP_ROUTER_02_ADDRESSES)",
});

/**
 * The ERC-4337 EntryPoints (v0.6, v0.7, v0.8). ETH sent to one, by an account's prefund inside a
 * UserOperation or by a deposit, is held there as that account's gas: it pays nobody.
 */
export const entryPointAddresses: readonly string[] = [
  entryPoint06Address,
  entryPoint07Address,
  entryPoint08Address,
];

const entryPoint = (version: string, address: string): ProtocolContract => ({
  name: `ERC-4337 EntryPoint ${version}`,
  operator: "eth-infinitism",
  address,
  chains: everyChain,
  outcome: "lost",
  nativeSend:
    "A native send is credited to the sender's own gas deposit in the EntryPoint, not to anyone else.",
  tokenSend: tokensLost,
  next: `Do not send to ERC-4337 EntryPoint ${version} to pay someone: the recipient gets nothing. Tokens sent to it are lost; ETH only becomes your own gas deposit there.`,
  source: "npm viem (viem/account-abstraction entryPoint06/07/08Address)",
});

const safeContract = (name: string, address: string, chains: readonly ChainName[]) => ({
  name,
  operator: "Safe",
  address,
  chains,
  outcome: "lost" as const,
  nativeSend: name.includes("factory")
    ? "It has no receive function: a native send reverts."
    : "The singleton keeps a native send, and nobody can ever move it: it is the code Safes run, not a Safe.",
  tokenSend: tokensLost,
  source: "npm @safe-global/safe-deployments 1.37.63",
});

// Wrapped native tokens: sending the native coin mints the same amount to the sender.
const wrappedNative = (
  symbol: string,
  address: string,
  chains: readonly ChainName[],
): ProtocolContract => ({
  name: symbol,
  operator: "wrapped native token",
  address,
  chains,
  outcome: "elsewhere",
  nativeSend: `A native send is wrapped: the sender receives the same amount of ${symbol} in their own wallet, and the recipient gets nothing.`,
  tokenSend: tokensLost,
  source: "npm @uniswap/sdk-core 7.19.4 (WETH9)",
});

const opStackBridge = (
  name: string,
  address: string,
  chains: readonly ChainName[],
  nativeSend: string,
): ProtocolContract => ({
  name,
  operator: "Optimism",
  address,
  chains,
  outcome: "elsewhere",
  nativeSend,
  tokenSend:
    "Tokens transferred to it directly (not through its deposit functions) are stuck in the bridge.",
  source: "npm viem (viem/chains OP Stack contracts)",
});
const toL2 = (l2: ChainName) =>
  `A native send from a wallet (EOA) is bridged to the sender's own address on ${chains[l2].label}, not to anyone else; from a contract it reverts.`;
const toL1 = `A native send from a wallet is withdrawn to the sender's own address on ${chains.ethereum.label} (claimable after about 7 days), not to anyone else.`;

/**
 * Contracts people send to by mistake, per chain, each saying what happens to funds sent there.
 * Addresses come from their authors' npm packages (see README.md); `protocolContracts.test.ts`
 * checks each written-out address against its package.
 */
export const protocolContracts: readonly ProtocolContract[] = [
  permit2,
  uniswapV2Router("0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D", ["ethereum"]),
  uniswapV2Router("0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24", ["base", "arbitrum"]),
  uniswapV2Router("0x4a7b5da61326a6379179b40d00f57e5bbdc962c2", ["optimism"]),
  uniswapV2Router("0xedf6066a2b290c185783862c7f4776a2c8077ad1", ["polygon"]),
  swapRouter02("0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45", [
    "ethereum",
    "arbitrum",
    "optimism",
    "polygon",
  ]),
  swapRouter02("0x2626664c2603336E57B271c5C0b26F421741e481", ["base"]),
  entryPoint("v0.6", entryPoint06Address),
  entryPoint("v0.7", entryPoint07Address),
  entryPoint("v0.8", entryPoint08Address),
  {
    name: "Multicall3",
    operator: "mds1",
    address: multicall3Address,
    chains: everyChain,
    outcome: "lost",
    nativeSend: "It has no receive function: a native send reverts.",
    tokenSend: tokensTakenByAnyone,
    source: "npm viem (viem/chains contracts.multicall3)",
  },
  safeContract(
    "Safe 1.3.0 singleton",
    "0xd9Db270c1B5E3Bd161E8c8503c55cEABeE709552",
    canonicalSafe130,
  ),
  safeContract("Safe 1.3.0 singleton", "0x69f4D1788e39c87893C980c06EdF4b7f686e2938", eip155Safe130),
  safeContract(
    "SafeL2 1.3.0 singleton",
    "0x3E5c63644E683549055b9Be8653de26E0B4CD36E",
    canonicalSafe130,
  ),
  safeContract(
    "SafeL2 1.3.0 singleton",
    "0xfb1bffC9d739B8D520DaF37dF666da4C687191EA",
    eip155Safe130,
  ),
  safeContract(
    "Safe 1.3.0 proxy factory",
    "0xa6B71E26C5e0845f74c812102Ca7114b6a896AB2",
    canonicalSafe130,
  ),
  safeContract(
    "Safe 1.3.0 proxy factory",
    "0xC22834581EbC8527d974F8a1c97E1bEA4EF910BC",
    eip155Safe130,
  ),
  safeContract("Safe 1.4.1 singleton", "0x41675C099F32341bf84BFc5382aF534df5C7461a", everyChain),
  safeContract("SafeL2 1.4.1 singleton", "0x29fcB43b46531BcA003ddC8FCB67FFE91900C762", everyChain),
  safeContract(
    "Safe 1.4.1 proxy factory",
    "0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67",
    everyChain,
  ),
  wrappedNative("WETH", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", ["ethereum"]),
  wrappedNative("WETH", "0x4200000000000000000000000000000000000006", ["base", "optimism"]),
  wrappedNative("WETH", "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1", ["arbitrum"]),
  wrappedNative("WMATIC", "0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270", ["polygon"]),
  opStackBridge(
    "OP Mainnet L1StandardBridge",
    optimism.contracts.l1StandardBridge[1].address,
    ["ethereum"],
    toL2("optimism"),
  ),
  opStackBridge(
    "OP Mainnet OptimismPortal",
    optimism.contracts.portal[1].address,
    ["ethereum"],
    toL2("optimism"),
  ),
  opStackBridge(
    "Base L1StandardBridge",
    base.contracts.l1StandardBridge[1].address,
    ["ethereum"],
    toL2("base"),
  ),
  opStackBridge(
    "Base OptimismPortal",
    base.contracts.portal[1].address,
    ["ethereum"],
    toL2("base"),
  ),
  opStackBridge(
    "L2StandardBridge (OP Stack predeploy)",
    optimism.contracts.l2StandardBridge.address,
    ["optimism", "base"],
    toL1,
  ),
  opStackBridge(
    "L2ToL1MessagePasser (OP Stack predeploy)",
    optimism.contracts.l2ToL1MessagePasser.address,
    ["optimism", "base"],
    toL1,
  ),
];

const byChainAndAddress = new Map(
  protocolContracts.flatMap((entry) =>
    entry.chains.map((chain) => [`${chain}:${entry.address.toLowerCase()}`, entry] as const),
  ),
);

/**
 * The protocol contract at `address` on `chain`, when it is one people send to by mistake.
 * @example findProtocolContract("ethereum", "0x000000000022D473030F116dDEE9F6B43aC78BA3")?.name // "Permit2"
 */
export function findProtocolContract(
  chain: ChainName,
  address: string,
): ProtocolContract | undefined {
  return byChainAndAddress.get(`${chain}:${address.toLowerCase()}`);
}

/**
 * The protocol contracts at `address` on any of the five chains (one entry names its chains), for
 * a check on a chain where the address holds nothing: a bridge's address copied onto another
 * network is nobody's wallet there either.
 * @example findProtocolContractsAt("0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1")[0]?.chains // ["ethereum"]
 */
export function findProtocolContractsAt(address: string): ProtocolContract[] {
  const key = address.toLowerCase();
  return protocolContracts.filter((entry) => entry.address.toLowerCase() === key);
}
