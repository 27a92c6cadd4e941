import { classifySpecialAddress, type SpecialAddress } from "../address/specialAddresses";
import type { ChainFacts, Checksum, KnownSweeper, WalletCode } from "../api/report";
import { type ChainName, chains } from "../chains/chains";
import { findKnownSweeper } from "../registry/knownSweepers";
import { findKnownTokenChains } from "../registry/knownTokens";
import { isOpenDelegate } from "../registry/openDelegates";
import {
  findProtocolContract,
  findProtocolContractsAt,
  type ProtocolContract,
} from "../registry/protocolContracts";
import { chainActivity } from "./chainActivity";
import { chainLabels } from "./chainLabels";
import { deployedWalletKinds } from "./deployedWalletKinds";
import { isPositiveBalance } from "./isPositiveBalance";
import { isSafeLookalike } from "./isSafeLookalike";
import { joinNames } from "./joinNames";
import { plainKind } from "./plainKind";
import { readBalances } from "./readBalances";
import type { Finding } from "./summarizeFindings";
import { unknownFacts } from "./unknownFacts";

export type TargetInput = {
  address: string;
  checksum: Checksum;
  /** Facts on the chain the caller is about to send on. */
  target: ChainFacts;
};

function specialAddressFinding(special: SpecialAddress): Finding {
  switch (special.kind) {
    case "zero":
      return {
        code: "zero_address",
        level: "danger",
        message: "This is the zero address: nobody holds its key, so funds sent here are lost.",
        headline: "Zero address: funds sent here are lost",
        next: "Do not send: the zero address cannot spend what it receives.",
      };
    case "burn":
      return {
        code: "burn_address",
        level: "danger",
        message: `This is the ${special.label}: it exists to destroy tokens; funds sent here are lost.`,
        headline: "Burn address: funds sent here are lost",
        next: "Do not send: this is a burn address.",
      };
    case "precompile":
      return {
        code: "precompile",
        level: "danger",
        message: `This is the ${special.label}, built into the chain: it cannot send anything back.`,
        headline: "Precompiled contract, not a wallet",
        next: "Do not send: this is a precompiled contract, not a wallet.",
      };
    case "stablecoin": {
      const where = chainLabels(special.chains ?? []);
      return {
        code: "stablecoin_contract",
        level: "danger",
        message: `This is the ${special.label} token contract on ${where}, not a wallet: tokens sent to it are usually lost for good.`,
        headline: `The ${special.label} contract on ${where}, not a wallet`,
        next: `Do not send: this is the ${special.label} contract on ${where}.`,
      };
    }
  }
}

/**
 * A token on the token list of one of the five chains, where this chain's facts show no token: an
 * address copied from a token's page, often sent to on another chain, where it has no code and
 * nobody holds its key. A stablecoin has its own finding, and a token here the kind rules name.
 */
function listedTokenFinding(
  address: string,
  target: ChainFacts,
  special: SpecialAddress | null,
): Finding | null {
  if (special?.kind === "stablecoin" || target.kind === "token" || target.kind === "nft") {
    return null;
  }
  const listed = findKnownTokenChains(address);
  if (listed.length === 0) return null;
  const where = chainLabels(listed.map((entry) => entry.chain));
  const symbol = joinNames([...new Set(listed.map((entry) => entry.symbol))]);
  const here = chains[target.name].label;
  return {
    code: "listed_token_contract",
    level: "danger",
    message: `This is the address of the ${symbol} token contract on ${where} (Uniswap's token list), not a wallet: nobody holds a key for it, so funds sent to it on ${here} are lost.`,
    headline: `The ${symbol} token contract on ${where}, not a wallet`,
    next: `Do not send: this is the ${symbol} token contract on ${where}; ask the recipient for their wallet address.`,
  };
}

/**
 * A protocol contract of another chain (a bridge, a router, a wrapped native token), checked where
 * nothing is deployed at its address: copied from a block explorer or a bridge's page onto the
 * wrong network. Nobody holds a key for it here, and its authors' code is not here to act on a
 * deposit. A listed token or a stablecoin has its own finding.
 */
function protocolElsewhereFinding(
  address: string,
  target: ChainFacts,
  special: SpecialAddress | null,
  listedToken: Finding | null,
): Finding | null {
  if (target.status !== "ok" || target.isContract !== false) return null;
  if (special || listedToken) return null;
  const elsewhere = findProtocolContractsAt(address).filter(
    (entry) => !entry.chains.includes(target.name),
  );
  const [protocol] = elsewhere;
  if (!protocol) return null;
  const where = chainLabels(protocol.chains);
  const here = chains[target.name].label;
  return {
    code: "protocol_contract_elsewhere",
    level: "danger",
    chain: target.name,
    message: `This is the address of ${protocol.name} (${protocol.operator}) on ${where}, a protocol contract, not anyone's wallet; on ${here} nothing is deployed at it and nobody holds a key for it, so funds sent to it on ${here} are lost.`,
    headline: `${protocol.name} on ${where}, not a wallet`,
    next: `Do not send: this is ${protocol.name}'s address on ${where}; ask the recipient for their own wallet address on ${here}.`,
  };
}

function checksumFinding(checksum: Checksum): Finding | null {
  if (checksum.status === "invalid") {
    return {
      code: "checksum_invalid",
      level: "danger",
      message: "The address checksum does not match: the address was probably mistyped or altered.",
      headline: "Wrong checksum: likely a typo",
      next: "Do not send: get the address again from the recipient.",
    };
  }
  if (checksum.status === "missing") {
    return {
      code: "checksum_missing",
      level: "caution",
      message: "No checksum (all one case): a typo in this address cannot be detected.",
      headline: "No checksum: typos cannot be detected",
      next: "Compare every character with the address the recipient gave you.",
    };
  }
  return null;
}

/** A protocol contract from the registry: what happens to funds sent there, by its authors' code. */
function protocolFinding(protocol: ProtocolContract, chain: ChainName): Finding {
  const lost = protocol.outcome === "lost";
  return {
    code: "protocol_contract",
    level: lost ? "danger" : "warn",
    chain,
    message: `This is ${protocol.name} (${protocol.operator}) on ${chains[chain].label}, a protocol contract, not anyone's wallet. ${protocol.nativeSend} ${protocol.tokenSend}`,
    headline: `${protocol.name} on ${chains[chain].label}: a protocol contract, not a wallet`,
    next:
      protocol.next ??
      (lost
        ? `Do not send: ${protocol.name} cannot return funds to anyone.`
        : `Do not send to ${protocol.name} to pay someone: the recipient gets nothing; use their own address.`),
  };
}

/** What the code at the address does with a native deposit, as far as the kind rules go. */
function kindFindings(
  target: ChainFacts,
  special: SpecialAddress | null,
  address: string,
): Finding[] {
  const chain = target.name;
  // The registry knows what its contracts do with funds; only where the code is really there.
  const protocol = target.isContract ? findProtocolContract(chain, address) : undefined;
  if (protocol && target.kind !== "token") return [protocolFinding(protocol, chain)];
  const label = plainKind(target);
  const outcome = target.receiveSimulation?.outcome;
  const findings: Finding[] = [];
  const isTargetStablecoin = special?.kind === "stablecoin" && special.chains?.includes(chain);

  // The stablecoin finding already says which token this is; a generic one would repeat it.
  if (target.kind === "token" && !isTargetStablecoin) {
    findings.push({
      code: "token_contract",
      level: "danger",
      chain,
      message: `This is a ${label} on ${chains[chain].label}, not a wallet: tokens sent to it are usually lost.`,
      headline: `${capitalize(label)} on ${chains[chain].label}, not a wallet`,
      next: `Do not send: this is a token contract on ${chains[chain].label}, not a wallet.`,
    });
  }
  if (target.kind === "nft") {
    findings.push({
      code: "nft_contract",
      level: "warn",
      chain,
      message: `This is an ${label} on ${chains[chain].label}, not a wallet: it is not made to hold or pass on funds sent to it.`,
      headline: `${capitalize(label)} on ${chains[chain].label}, not a wallet`,
      next: "Do not send unless the recipient confirms this collection contract is meant to receive funds.",
    });
  }
  // The classification decides what is wallet code (by the registry, or by how it answers), and
  // what is a known sweeper, which forwards a deposit as an exchange's deposit address does.
  if (target.kind === "contract" && target.knownSweeper) {
    findings.push(sweeperContractFinding(target.knownSweeper, chain));
  } else if (target.kind === "contract" && target.safeNotSetUp) {
    findings.push(safeNotSetUpFinding(chain));
  } else if (target.kind === "contract" && target.walletCode) {
    findings.push(walletCodeFinding(target.walletCode, chain));
  } else if (target.kind === "contract" && outcome === "forwarded") {
    findings.push(depositForwarderFinding(target));
  } else if (target.kind === "contract") {
    const behaviour = outcome === "rejected" ? " A native send to it would revert." : "";
    findings.push({
      code: "unknown_contract",
      level: "warn",
      chain,
      message: `This is a contract on ${chains[chain].label}, not a wallet presend recognises: it may not be able to move what it receives.${behaviour}`,
      headline:
        outcome === "rejected"
          ? `Contract on ${chains[chain].label} that rejects native transfers`
          : `Unknown contract on ${chains[chain].label}`,
      next: `Confirm with the recipient that this contract can receive and move funds on ${chains[chain].label}.`,
    });
  }
  if (deployedWalletKinds.includes(target.kind) && outcome === "rejected") {
    findings.push(rejectsNativeFinding(target, label));
  }
  if (deployedWalletKinds.includes(target.kind) && outcome === "forwarded") {
    findings.push(walletForwardsFinding(target, label));
  }
  if (target.kind === "eip7702-delegated") findings.push(...delegateFindings(target));
  if (protocol) findings.push(protocolFinding(protocol, chain));
  return findings;
}

/**
 * A Safe or smart account that refuses the native coin. Once it has sent something of its own,
 * tokens are the way to pay it; never used, nothing shows it can move tokens either: an ERC-4337
 * paymaster names its EntryPoint like an account, refuses the native coin and has no way to move
 * a token sent to it.
 */
function rejectsNativeFinding(target: ChainFacts, label: string): Finding {
  const chain = target.name;
  const { label: where, nativeSymbol: native } = chains[chain];
  if (target.outgoingTxs !== null && target.outgoingTxs > 0) {
    return {
      code: "rejects_native",
      level: "warn",
      chain,
      message: `A native ${native} transfer to this ${label} on ${where} would revert: send tokens only, or ask the recipient.`,
      headline: `Native transfers to this ${label} would revert`,
      next: `Do not send ${native} here; ask the recipient how to pay them on ${where}.`,
    };
  }
  const lookalike =
    target.kind === "smart-account"
      ? " It may not be a wallet at all: an ERC-4337 paymaster answers the same way."
      : "";
  const unused =
    target.outgoingTxs === 0
      ? "it has never sent anything"
      : "whether it has ever sent anything is unknown";
  return {
    code: "rejects_native",
    level: "warn",
    chain,
    message: `A native ${native} transfer to this ${label} on ${where} would revert, and ${unused}: nothing shows it can move tokens sent to it either.${lookalike}`,
    headline: `${capitalize(label)} on ${where} that refuses ${native}, never seen in use`,
    next: `Do not send here, tokens included, until the recipient shows this address can move funds on ${where}.`,
  };
}

/**
 * A Safe or smart account whose code passed the whole simulated deposit on: a wallet does not do
 * that, a thief's code does once a drainer got the owner to upgrade the account to it (its
 * UserOperations or Safe nonce still show it in use). What is sent never stays with the owner.
 */
function walletForwardsFinding(target: ChainFacts, label: string): Finding {
  const chain = target.name;
  const { label: where, nativeSymbol } = chains[chain];
  const collector = target.receiveSimulation?.forwardedTo;
  const to = collector ? `to another address (${collector})` : "to another address";
  return {
    code: "wallet_forwards_deposits",
    level: "danger",
    chain,
    message: `This ${label} on ${where} passed a simulated ${nativeSymbol} deposit on in full ${to}: nothing sent here stays in the wallet, as happens when a wallet's code has been replaced by a thief's.`,
    headline: `Anything sent here is passed on at once on ${where}`,
    next: "Do not send: what arrives here goes straight on to another address; warn the owner that their wallet may be compromised.",
  };
}

/** Wallet software's own contract: what smart wallets run, not anyone's wallet. */
function walletCodeFinding(walletCode: WalletCode, chain: ChainName): Finding {
  const { label: where } = chains[chain];
  const how =
    walletCode.role === "eip7702-delegate"
      ? "accounts hand control to it with EIP-7702"
      : "accounts run it behind their own addresses";
  // Unnamed, it showed itself by answering as only an implementation does (proxiableUUID).
  const whose = walletCode.name ? `${walletCode.name} ` : "";
  return {
    code: "wallet_code",
    level: "danger",
    chain,
    message: `This is the contract ${whose}smart wallets run on ${where} (${how}), not anyone's wallet: no one you could be paying controls this address, so funds sent here are lost.`,
    headline: `${walletCode.name ? `${walletCode.name} wallet` : "Smart wallet"} code on ${where}, not a wallet`,
    next: `Do not send: this is the code ${walletCode.name ?? "smart"} wallets run, not a wallet; ask the recipient for their own wallet address.`,
  };
}

/**
 * A Safe proxy whose setup never ran: Safe's own code, so it keeps what is sent, but it has no
 * owners, and setup() makes whoever calls it first the owner, a stranger as well as the recipient.
 */
function safeNotSetUpFinding(chain: ChainName): Finding {
  const { label: where } = chains[chain];
  return {
    code: "safe_not_set_up",
    level: "danger",
    chain,
    message: `This Safe shared wallet on ${where} was never set up: it has no owners yet, so anyone can make themselves its owner and take what is sent here.`,
    headline: `Safe never set up on ${where}: anyone can take what is sent here`,
    next: "Do not send: this Safe has no owners yet; the recipient must finish setting it up (add owners) before it can be paid.",
  };
}

/** A known sweeper's own contract: what stolen keys hand their accounts to, run by a thief. */
function sweeperContractFinding(sweeper: KnownSweeper, chain: ChainName): Finding {
  const { label: where } = chains[chain];
  return {
    code: "sweeper_contract",
    level: "danger",
    chain,
    message: `This is a contract known to steal deposits on ${where} (an EIP-7702 sweeper, listed as "${sweeper.label}"): it passes anything sent to it straight on to a thief, not to anyone you could be paying. It is not an exchange deposit address.`,
    headline: `Contract known to steal deposits on ${where}`,
    next: "Do not send: this contract passes what it receives to a thief; ask the recipient for their own wallet address.",
  };
}

/**
 * A known sweeper's address where no code of it was read: copied from a swept account's page
 * onto another network, or read where the chain did not answer. The registry lists it without a
 * network, and an address that is a contract elsewhere has no key: no one you could be paying
 * controls it here, and the thief may deploy the same code at it.
 */
function sweeperElsewhereFinding(address: string, target: ChainFacts): Finding | null {
  if (target.knownSweeper) return null;
  const sweeper = findKnownSweeper(address);
  if (!sweeper) return null;
  const here = chains[target.name].label;
  const noCodeHere =
    target.status === "ok" && target.isContract === false
      ? ` On ${here} nothing is deployed at it, and no one you could be paying holds a key for it.`
      : "";
  return {
    code: "sweeper_contract_elsewhere",
    level: "danger",
    chain: target.name,
    message: `This is the address of a contract known to steal deposits (an EIP-7702 sweeper, listed as "${sweeper.label}"): it passes anything sent to it on to a thief.${noCodeHere}`,
    headline: "Address of a contract known to steal deposits",
    next: "Do not send on any network: this address belongs to a contract that steals deposits.",
  };
}

/**
 * A contract that passed the whole simulated deposit on: what exchanges deploy as deposit
 * addresses. The exchange credits what it recognises; the asset and network are theirs to name.
 */
function depositForwarderFinding(target: ChainFacts): Finding {
  const chain = target.name;
  const collector = target.receiveSimulation?.forwardedTo;
  const to = collector ? `to one collector (${collector})` : "to another address";
  return {
    code: "deposit_forwarder",
    level: "caution",
    chain,
    message: `This contract on ${chains[chain].label} passed a simulated ${chains[chain].nativeSymbol} deposit on in full ${to}, as exchange deposit addresses do: the exchange credits only the asset and network it named for this address.`,
    headline: `Deposit address (forwards deposits) on ${chains[chain].label}`,
    next: `Send only the asset and network the exchange named for this deposit address (${chains[chain].label}).`,
  };
}

/**
 * An EIP-7702 wallet: a wallet that handed control of its account to a contract. The reasons say
 * so in plain words; the contract's address and what presend knows of it stay in the facts
 * (`delegate`, `delegateAssessment`), behind the card's details.
 */
function delegateFindings(target: ChainFacts): Finding[] {
  const chain = target.name;
  const assessment = target.delegateAssessment;
  const native = chains[chain].nativeSymbol;
  const outcome = target.receiveSimulation?.outcome;
  if (assessment?.category === "sweeper" || outcome === "forwarded") {
    const known = assessment?.category === "sweeper" ? " known to steal deposits" : "";
    return [
      {
        code: "eip7702_sweeper",
        level: "danger",
        chain,
        message: `This wallet has handed control to a contract${known} on ${chains[chain].label}: anything sent to it is passed straight on to someone else, so the owner's key is likely stolen.`,
        headline: `Anything sent here is taken on arrival on ${chains[chain].label}`,
        next: "Do not send: anything sent here is taken on arrival; warn the owner that their key is compromised.",
      },
    ];
  }
  if (target.delegate && isOpenDelegate(target.delegate)) {
    return [
      {
        code: "eip7702_open_delegate",
        level: "danger",
        chain,
        message: `This wallet has handed control to a contract that makes any call anyone asks of it on ${chains[chain].label}: anyone can move out what is sent here, tokens and ${native} alike.`,
        headline: `Anyone can take what is sent here on ${chains[chain].label}`,
        next: "Do not send: anyone can take funds sent here; warn the owner to remove the delegation.",
      },
    ];
  }
  if (outcome === "rejected") {
    return [
      {
        code: "eip7702_rejects_native",
        level: "warn",
        chain,
        message: `This wallet has handed control to a contract that refuses ${native} sent to it on ${chains[chain].label}: a ${native} send would fail.`,
        headline: `${native} sent to this wallet would fail on ${chains[chain].label}`,
        next: `Do not send ${native} here; ask the recipient how to pay them.`,
      },
    ];
  }
  if (assessment?.category === "wallet") return [];
  if (assessment?.category === "helper") {
    return [
      {
        code: "eip7702_helper_delegate",
        level: "caution",
        chain,
        message: `This wallet has handed control to a helper contract presend recognises (${assessment.label}) on ${chains[chain].label}, not to wallet software.`,
        headline: `Wallet run by a helper contract on ${chains[chain].label}`,
        next: "Ask the recipient whether they set up their wallet this way on purpose.",
      },
    ];
  }
  const simulated =
    outcome === "kept"
      ? "a test deposit was kept"
      : "the test deposit could not be run, so what it does with deposits is unknown";
  return [
    {
      code: "eip7702_unknown_delegate",
      level: "caution",
      chain,
      message: `This wallet has handed control to a contract presend does not recognise on ${chains[chain].label}; ${simulated}.`,
      headline: `Wallet run by an unrecognised contract on ${chains[chain].label}`,
      next: "Ask the recipient whether they set up their wallet this way on purpose.",
    },
  ];
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Rules that read the target chain's facts; each returns the findings it proves.
function chainFindings(
  target: ChainFacts,
  special: SpecialAddress | null,
  address: string,
  keyless: boolean,
): Finding[] {
  const chain = target.name;
  if (target.status !== "ok") {
    const error = target.error ?? "unknown error";
    return [
      {
        code: "chain_unavailable",
        level: "caution",
        chain,
        message: `Could not verify: ${chains[chain].label} could not be read (${error}).`,
        headline: `Could not verify on ${chains[chain].label}`,
        next: `Check again later: nothing about this address is verified on ${chains[chain].label}.`,
      },
    ];
  }
  const findings = kindFindings(target, special, address);
  const activity = chainActivity(target);
  const balances = readBalances(target);

  // Its own nonce() says a lookalike Safe is active: only Safe's proxy code makes that a Safe's.
  const lookalikeSafe = isSafeLookalike(target);
  // An address known to have no key (zero, burn, a precompile, a contract's address copied from
  // another chain) is no wallet, whatever its nonce and balances: "an exchange deposit address
  // or an unused wallet" or "send a small test amount first" would contradict its own reason.
  const isWalletKind =
    !keyless &&
    !lookalikeSafe &&
    (target.kind === "eoa" ||
      target.kind === "eip7702-delegated" ||
      deployedWalletKinds.includes(target.kind));
  const outgoingTxs = target.outgoingTxs;
  const label = plainKind(target);
  if (isWalletKind && outgoingTxs !== null && outgoingTxs > 0) {
    const plural = outgoingTxs === 1 ? "transaction" : "transactions";
    findings.push({
      code: "active_wallet",
      level: "ok",
      chain,
      message: `Active ${label} on ${chains[chain].label}: ${outgoingTxs} outgoing ${plural} of its own.`,
      headline: `Active ${label} on ${chains[chain].label}`,
      next: `Looks safe to send on ${chains[chain].label}; double-check the address with the recipient.`,
    });
  } else if (lookalikeSafe) {
    findings.push({
      code: "safe_unrecognised",
      level: "caution",
      chain,
      message: `This contract answers like a Safe on ${chains[chain].label}, but its code is not the proxy of any Safe release: a contract made to look like one, so who can move what it receives is unknown.`,
      headline: `Looks like a Safe on ${chains[chain].label}, but its code is not a recognised Safe`,
      next: "Confirm with the recipient that this is their Safe, and send a small test amount first.",
    });
  } else if (deployedWalletKinds.includes(target.kind) && outgoingTxs === 0) {
    findings.push({
      code: "unused_account",
      level: "caution",
      chain,
      message: `${capitalize(label)} on ${chains[chain].label}, deployed, never used: it has sent nothing yet, so nobody has shown they can move funds from it.`,
      headline: `${capitalize(label)} on ${chains[chain].label}: deployed, never used`,
      next: "Send a small test amount first, and confirm the address with the recipient.",
    });
  } else if (isWalletKind && outgoingTxs === 0 && activity.holdsFunds) {
    findings.push({
      code: "receive_only",
      level: "caution",
      chain,
      message: `Holds ${joinNames(balances.held)} on ${chains[chain].label} but has never sent a transaction: an exchange deposit address or an unused wallet.`,
      headline: `Received funds on ${chains[chain].label} but never sent`,
      next: "Send a small test amount first, and confirm the address with the recipient.",
    });
  } else if (isWalletKind && outgoingTxs === 0) {
    findings.push({
      code: "fresh_address",
      level: "caution",
      chain,
      message: `No outgoing transactions and no ${joinNames(balances.read, "or")} balance on ${chains[chain].label}: nothing read here shows this address in use (other tokens are not read).`,
      headline: `No activity seen on ${chains[chain].label}`,
      next: "Send a small test amount first.",
    });
  }

  const bridged = target.usdcBridged;
  if (isPositiveBalance(bridged) && !isPositiveBalance(target.usdc)) {
    const symbol = bridged?.symbol ?? "bridged USDC";
    findings.push({
      code: "bridged_usdc_only",
      level: "caution",
      chain,
      message: `Holds ${symbol} (bridged USDC) but no native USDC on ${chains[chain].label}: the two are different tokens.`,
      headline: `Holds only bridged USDC (${symbol}) on ${chains[chain].label}`,
      next: `Ask the recipient whether they expect native USDC or ${symbol} on ${chains[chain].label}.`,
    });
  }

  // Readable but partly unknown proves nothing about the unknown part: never ok.
  const unknown = unknownFacts(target);
  if (unknown.length > 0) {
    findings.push({
      code: "unclassified",
      level: "caution",
      chain,
      message: `Part of ${chains[chain].label}'s answer could not be read: ${joinNames(unknown)} unknown.`,
      headline: `Not fully verified on ${chains[chain].label}`,
      next: `Check again later: ${joinNames(unknown)} could not be read on ${chains[chain].label}.`,
    });
  }
  return findings;
}

/**
 * The single-chain rules: what the address is, its checksum, and its facts on the target chain.
 * @example targetFindings({ address, checksum, target }).map((finding) => finding.code) // ["fresh_address"]
 */
export function targetFindings({ address, checksum, target }: TargetInput): Finding[] {
  const special = classifySpecialAddress(address);
  const checksumIssue = checksumFinding(checksum);
  const listedToken = listedTokenFinding(address, target, special);
  const protocolElsewhere = protocolElsewhereFinding(address, target, special, listedToken);
  const sweeperElsewhere = sweeperElsewhereFinding(address, target);
  return [
    ...(special ? [specialAddressFinding(special)] : []),
    ...(listedToken ? [listedToken] : []),
    ...(protocolElsewhere ? [protocolElsewhere] : []),
    ...(sweeperElsewhere ? [sweeperElsewhere] : []),
    ...(checksumIssue ? [checksumIssue] : []),
    ...chainFindings(
      target,
      special,
      address,
      special !== null ||
        listedToken !== null ||
        protocolElsewhere !== null ||
        sweeperElsewhere !== null,
    ),
  ];
}
