import type { ChainFacts, WalletCode } from "@presend/shared/api/report";
import { type ChainName, chainNames, chains } from "@presend/shared/chains/chains";
import { assessDelegate } from "@presend/shared/registry/knownDelegates";
import { findAccountImplementation } from "@presend/shared/registry/knownImplementations";
import { findSafeProxyVersion } from "@presend/shared/registry/knownSafeProxies";
import { findKnownSweeper } from "@presend/shared/registry/knownSweepers";
import { findKnownToken } from "@presend/shared/registry/knownTokens";
import { findWalletCode } from "@presend/shared/registry/knownWalletCode";
import { findProtocolContract } from "@presend/shared/registry/protocolContracts";
import {
  type Address,
  decodeFunctionResult,
  getAddress,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  keccak256,
  size,
  sliceHex,
  zeroAddress,
} from "viem";
import {
  type EntryPointVersion,
  eip1967ImplementationSlot,
  entryPoints,
  type FactsSubcallKey,
  probeAbi,
} from "./buildFactsBatch";

export type SubcallResult = { success: boolean; returnData: Hex };

export type ClassifyInput = {
  address: Address;
  chainId: number;
  code: Hex;
  /** eth_getTransactionCount. */
  accountNonce: bigint;
  subcalls: Map<FactsSubcallKey, SubcallResult>;
  /** The EIP-1967 implementation slot as read; null when that read failed. */
  implementationSlot: Hex | null;
  /** EXTCODEHASH of the EIP-7702 delegate as read; null when that read failed. */
  delegateCodeHash: Hex | null;
  /** The behaviour probes used up all the gas they were given: none of them answered. */
  probesRanOutOfGas: boolean;
  /** The probes were left out (the full answer was over the size bound): none was asked. */
  probesNotAsked?: boolean;
};

export type Classification = Pick<
  ChainFacts,
  | "isContract"
  | "kind"
  | "kindLabel"
  | "vendor"
  | "delegate"
  | "delegateAssessment"
  | "implementation"
  | "walletCode"
  | "knownSweeper"
  | "safeNotSetUp"
  | "entryPoint"
  | "safe"
  | "token"
  | "outgoingTxs"
> & { unknowns: string[] };

/** The most Safe owners a report carries (the address-bound answers stay bounded too). */
const maxOwnerAddresses = 50;
const emptyCodeHash = "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470";
const nonceKeyOf: Record<EntryPointVersion, FactsSubcallKey> = {
  "v0.6": "entryPointNonceV06",
  "v0.7": "entryPointNonceV07",
  "v0.8": "entryPointNonceV08",
};

/** The single uint256 word of a successful call, or undefined when it returned anything else. */
export function word(result: SubcallResult | undefined): bigint | undefined {
  if (!result?.success || size(result.returnData) !== 32) return undefined;
  return hexToBigInt(result.returnData);
}

function decoded<T>(
  result: SubcallResult | undefined,
  functionName: "getOwners" | "masterCopy" | "accountId" | "symbol" | "entryPoint" | "entrypoint",
): T | undefined {
  if (!result?.success || size(result.returnData) === 0) return undefined;
  try {
    return decodeFunctionResult({ abi: probeAbi, functionName, data: result.returnData }) as T;
  } catch {
    return undefined;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A short printable string from a contract (symbols and ids are attacker-chosen text). */
function cleanText(text: string | undefined): string | null {
  if (!text) return null;
  const printable = text.replace(/[^\x20-\x7e]/g, "").trim();
  return printable.length > 0 ? printable.slice(0, 32) : null;
}

/**
 * What an address is, from its code and the behaviour probes of one facts batch: EOA, EIP-7702
 * account (delegate judged against the registry), Safe, smart account, token, NFT, or contract;
 * with its own outgoing activity counted where that kind keeps it.
 * @example classifyAccount({ address, chainId: 8453, code: "0x", accountNonce: 3n, ... }).kind // "eoa"
 */
export function classifyAccount(input: ClassifyInput): Classification {
  const { code, subcalls } = input;
  const nonce = Number(input.accountNonce);
  if (size(code) === 0) {
    return {
      isContract: false,
      kind: "eoa",
      kindLabel: "wallet (EOA)",
      outgoingTxs: nonce,
      unknowns: [],
    };
  }
  // EIP-7702 delegation designator: 0xef0100 || 20-byte delegate. Still an EOA (it has a key and
  // sends its own transactions), but the delegate's code decides what happens to deposits.
  if (size(code) === 23 && code.toLowerCase().startsWith("0xef0100")) {
    const delegate = getAddress(sliceHex(code, 3));
    const codeHash =
      input.delegateCodeHash && hexToBigInt(input.delegateCodeHash) !== 0n
        ? input.delegateCodeHash
        : null;
    const { vendor, ...assessment } = assessDelegate(delegate, codeHash);
    const unknowns =
      input.delegateCodeHash === null && assessment.matchedBy === null
        ? ["the delegate's code"]
        : [];
    const noCode = codeHash === emptyCodeHash;
    const kindLabel =
      assessment.category === "wallet"
        ? `${vendor ?? assessment.label} smart account (EIP-7702)`
        : assessment.category === "sweeper"
          ? "EIP-7702 account delegating to a known sweeper"
          : assessment.category === "helper"
            ? `EIP-7702 account delegating to a helper contract (${assessment.label})`
            : noCode
              ? "EIP-7702 account delegating to an address without code"
              : "EIP-7702 account delegating to an unknown contract";
    return {
      isContract: false,
      kind: "eip7702-delegated",
      kindLabel,
      vendor,
      delegate,
      delegateAssessment: assessment,
      outgoingTxs: nonce,
      unknowns,
    };
  }

  const implementation =
    input.implementationSlot && hexToBigInt(input.implementationSlot) !== 0n
      ? getAddress(sliceHex(input.implementationSlot, 12))
      : null;
  const unknowns = input.implementationSlot === null ? ["the proxy implementation slot"] : [];
  // Code that burns the gas of every call it does not understand (an invalid opcode, a loop)
  // answers no probe: it is no wallet presend can recognise, and what it is stays unknown.
  if (input.probesRanOutOfGas) {
    unknowns.push("what the contract is (every call to it ran out of gas)");
  }
  // A contract answering with megabytes is asked again without the probes, so it is still checked.
  if (input.probesNotAsked) {
    unknowns.push("what the contract is (its answers were too large to read)");
  }
  const contract = { isContract: true, implementation, unknowns } as const;

  // Wallet software's own contract answers like an unused smart account, yet nobody owns it.
  const registered = findWalletCode(input.address, null);
  if (registered) return { ...contract, ...walletCodeContract(registered) };
  // A known sweeper passes a deposit on in full, as an exchange's deposit address does: only the
  // registry tells the thief's contract apart, so it is named before anything it answers.
  const sweeper = findKnownSweeper(input.address);
  if (sweeper) {
    return {
      ...contract,
      kind: "contract",
      kindLabel: `EIP-7702 sweeper contract known to steal deposits (${sweeper.label})`,
      vendor: null,
      knownSweeper: sweeper,
      outgoingTxs: null,
    };
  }

  const threshold = word(subcalls.get("threshold"));
  const owners = decoded<readonly Address[]>(subcalls.get("owners"), "getOwners");
  if (threshold !== undefined && threshold > 0n && owners && owners.length > 0) {
    const safeNonce = word(subcalls.get("safeNonce"));
    if (safeNonce === undefined) unknowns.push("the Safe's nonce");
    const singleton = decoded<Address>(subcalls.get("masterCopy"), "masterCopy");
    return {
      ...contract,
      kind: "safe",
      kindLabel: `Safe (${plural(owners.length, "owner")}, threshold ${threshold})`,
      vendor: "Safe",
      safe: {
        owners: owners.length,
        threshold: Number(threshold),
        singleton: singleton && !isAddressEqual(singleton, zeroAddress) ? singleton : null,
        // What answers like a Safe is one of Safe's proxies only if its code is.
        proxyVersion: findSafeProxyVersion(keccak256(code)),
        // A list too long to carry is cut: only a complete one is compared across chains.
        ownerAddresses: owners.slice(0, maxOwnerAddresses).map((owner) => getAddress(owner)),
      },
      outgoingTxs: safeNonce === undefined ? null : Number(safeNonce),
    };
  }

  // A Safe proxy whose setup() never ran answers threshold 0 through a Safe singleton. It keeps a
  // send, and setup() is open to the first caller, who becomes its owner: no one's wallet yet.
  // Only Safe's own proxy code makes that certain (the hash is taken only for this answer).
  if (threshold === 0n) {
    const proxyVersion = findSafeProxyVersion(keccak256(code));
    if (proxyVersion) {
      const singleton = decoded<Address>(subcalls.get("masterCopy"), "masterCopy");
      return {
        ...contract,
        kind: "contract",
        kindLabel: `Safe ${proxyVersion} proxy, never set up (no owners)`,
        vendor: "Safe",
        safeNotSetUp: {
          proxyVersion,
          singleton: singleton && !isAddressEqual(singleton, zeroAddress) ? singleton : null,
        },
        outgoingTxs: null,
      };
    }
  }

  const knownImplementation = implementation
    ? findAccountImplementation(implementation)
    : undefined;
  const entryPointAnswer =
    decoded<Address>(subcalls.get("entryPoint"), "entryPoint") ??
    decoded<Address>(subcalls.get("entrypoint"), "entrypoint");
  const entryPointVersion = (Object.keys(entryPoints) as EntryPointVersion[]).find(
    (version) => entryPointAnswer && isAddressEqual(entryPointAnswer, entryPoints[version]),
  );
  const accountId = cleanText(decoded<string>(subcalls.get("accountId"), "accountId"));
  const activity = userOperationCount(subcalls);
  const isAccount =
    entryPointVersion ||
    knownImplementation ||
    accountId ||
    answersErc1271(subcalls.get("erc1271")) ||
    (activity.count !== null && activity.count > 0n);
  // An account nobody has used may be the code accounts run rather than an account: a wallet
  // delegate's code the registry knows, deployed at another address, or a UUPS implementation,
  // which answers proxiableUUID() only as itself (through its proxies, the call reverts), and
  // whose constructor disables the initializer: nobody owns it. One that counts UserOperations of
  // its own is in use as an account after all, and is judged as one.
  const used = activity.count !== null && activity.count > 0n;
  if (isAccount && !used) {
    // Hashed only here: most contracts checked are no account, and an implementation's code is long.
    const walletCode: WalletCode | undefined =
      findWalletCode(input.address, keccak256(code)) ??
      (answersAsUupsImplementation(subcalls.get("proxiableUUID"))
        ? { name: null, role: "implementation", matchedBy: "proxiableUUID" }
        : undefined);
    if (walletCode) return { ...contract, ...walletCodeContract(walletCode) };
  }
  if (isAccount) {
    let outgoingTxs: number | null = null;
    if (activity.count !== null && activity.count > 0n) outgoingTxs = Number(activity.count);
    else if (activity.count === null) unknowns.push("the EntryPoint nonce");
    else if (entryPointVersion) outgoingTxs = 0;
    // Nothing through any EntryPoint and none it answers to: it may act in other ways.
    else unknowns.push("the account's outgoing activity (no known EntryPoint)");
    const vendor = knownImplementation?.vendor ?? accountId;
    return {
      ...contract,
      kind: "smart-account",
      kindLabel:
        knownImplementation?.vendor ??
        (accountId
          ? `ERC-7579 smart account (${accountId})`
          : entryPointVersion
            ? "ERC-4337 smart account"
            : "smart account (ERC-1271)"),
      vendor: vendor ?? null,
      ...(entryPointVersion ? { entryPoint: entryPoints[entryPointVersion] } : {}),
      outgoingTxs,
    };
  }

  const listed = findKnownToken(input.chainId, input.address);
  const symbol = listed?.symbol ?? cleanText(decoded<string>(subcalls.get("symbol"), "symbol"));
  const isTrue = (key: FactsSubcallKey) => word(subcalls.get(key)) === 1n;
  const nftStandard = isTrue("erc721") ? "erc721" : isTrue("erc1155") ? "erc1155" : null;
  if (nftStandard) {
    return {
      ...contract,
      kind: "nft",
      kindLabel: `NFT collection (${nftStandard === "erc721" ? "ERC-721" : "ERC-1155"}${symbol ? `, ${symbol}` : ""})`,
      token: { standard: nftStandard, symbol, name: listed?.name ?? null, listed: !!listed },
      outgoingTxs: null,
    };
  }
  const totalSupply = word(subcalls.get("totalSupply"));
  const decimals = word(subcalls.get("decimals"));
  // decimals is a uint8 in the ERC-20 ABI; a larger word means the function is something else.
  const looksErc20 = totalSupply !== undefined && decimals !== undefined && decimals <= 255n;
  if (listed || looksErc20) {
    return {
      ...contract,
      kind: "token",
      kindLabel: `ERC-20 token contract${symbol ? ` (${symbol})` : ""}`,
      token: { standard: "erc20", symbol, name: listed?.name ?? null, listed: !!listed },
      outgoingTxs: null,
    };
  }
  const protocol = findProtocolContract(chainNameOf(input.chainId), input.address);
  return {
    ...contract,
    kind: "contract",
    kindLabel: protocol ? `${protocol.name} (${protocol.operator})` : "contract",
    outgoingTxs: null,
  };
}

/**
 * The account's UserOperations over every EntryPoint version (getNonce(account, 0) is
 * key 0 << 64 | sequence: the sequence is the count); null when any of them could not be read.
 */
function userOperationCount(subcalls: Map<FactsSubcallKey, SubcallResult>): {
  count: bigint | null;
} {
  let count = 0n;
  for (const version of Object.keys(entryPoints) as EntryPointVersion[]) {
    const result = subcalls.get(nonceKeyOf[version]);
    // Success with no data: no EntryPoint code on this chain, so no UserOperation ever ran.
    if (result?.success && size(result.returnData) === 0) continue;
    const nonce = word(result);
    if (nonce === undefined) return { count: null };
    count += nonce & 0xffffffffffffffffn;
  }
  return { count };
}

/** A contract that is wallet software's own code: labelled so, with no activity of its own. */
function walletCodeContract(walletCode: WalletCode) {
  const role =
    walletCode.role === "eip7702-delegate"
      ? "EIP-7702 delegate"
      : walletCode.matchedBy === "proxiableUUID"
        ? "UUPS implementation"
        : "smart-account implementation";
  return {
    kind: "contract",
    kindLabel: `${walletCode.name ?? "smart-account"} wallet code (${role}), not a wallet`,
    vendor: walletCode.name,
    walletCode,
    outgoingTxs: null,
  } as const;
}

/** proxiableUUID() answered with the ERC-1967 implementation slot, as a UUPS implementation does. */
function answersAsUupsImplementation(result: SubcallResult | undefined): boolean {
  return result?.success === true && result.returnData.toLowerCase() === eip1967ImplementationSlot;
}

/** An ERC-1271 answer: the magic value or the failure value, left-aligned in one word. */
function answersErc1271(result: SubcallResult | undefined): boolean {
  if (!result?.success || size(result.returnData) !== 32) return false;
  const data = result.returnData.toLowerCase();
  const padded = data.slice(10) === "0".repeat(56);
  return padded && (data.startsWith("0x1626ba7e") || data.startsWith("0xffffffff"));
}

function chainNameOf(chainId: number): ChainName {
  return chainNames.find((name) => chains[name].id === chainId) ?? "base";
}
