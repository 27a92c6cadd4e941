import {
  demoAccounts,
  demoContracts,
  devnetAccounts,
  devnetClient,
  recipientKinds,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import type { Level } from "@presend/shared/api/report";
import { type ChainName, chainNames, multicall3Address } from "@presend/shared/chains/chains";
import {
  type Address,
  domainSeparator,
  encodeFunctionData,
  erc20Abi,
  parseAbi,
  parseEther,
} from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildFactsBatch,
  maxBatchEntries,
  receiveSimulationSender,
} from "../chain/buildFactsBatch";
import { type ChainReader, createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// The recipients people really hit, each built on the local chains from its published npm
// artifact (or a contract written here where none is published) with real transactions, each
// checked by the real engine: what a careful expert would say, and the reason that decides it.

type Row = {
  name: string;
  address: Address;
  chain: ChainName;
  check: Level;
  deep: Level;
  /** The deciding reason of the check (the deep one when `deepFrom` is set). */
  code: string;
  /** Text the deciding reason's message, the headline or the next step must contain. */
  says: string;
  /** A deep check on this chain instead (the address has no code there). */
  deepFrom?: ChainName;
  /** Another reason the deciding verdict must give. */
  also?: string;
};

const rows: Row[] = [
  // Right before, stay right.
  {
    name: "Safe 1.3.0 L2 (published GnosisSafeL2) with one executed transaction",
    address: recipientKinds.safe130L2OnBase,
    chain: "base",
    check: "ok",
    deep: "ok",
    code: "active_wallet",
    says: "Active Safe shared wallet (1 of 2 owners sign) on Base",
  },
  {
    name: "Safe 1.4.1 with one executed transaction",
    address: demoAccounts.usedSafeOnBase,
    chain: "base",
    check: "ok",
    deep: "ok",
    code: "active_wallet",
    says: "Active Safe shared wallet (1 of 2 owners sign) on Base",
  },
  {
    name: "ERC-4337 SimpleAccount used through EntryPoint v0.8",
    address: demoAccounts.smartAccountOnBase,
    chain: "base",
    check: "ok",
    deep: "ok",
    code: "active_wallet",
    says: "Active smart wallet on Base",
  },
  {
    name: "EIP-7702 account on Simple7702Account",
    address: devnetAccounts.delegatedOnBase.address,
    chain: "base",
    check: "ok",
    deep: "ok",
    code: "active_wallet",
    says: "Active Simple7702Account smart wallet on Base",
  },
  {
    name: "EIP-7702 account on MetaMask's EIP7702StatelessDeleGator (published bytecode)",
    address: devnetAccounts.metaMaskDelegatedOnBase.address,
    chain: "base",
    check: "ok",
    deep: "ok",
    code: "active_wallet",
    says: "Active MetaMask smart wallet on Base",
  },
  {
    name: "OpenZeppelin ERC-20",
    address: demoContracts.tokenOnBase,
    chain: "base",
    check: "danger",
    deep: "danger",
    code: "token_contract",
    says: "Token contract (DEMO) on Base, not a wallet",
  },
  {
    name: "OpenZeppelin ERC-721 collection",
    address: demoContracts.collectionOnBase,
    chain: "base",
    check: "warn",
    deep: "warn",
    code: "nft_contract",
    says: "NFT collection (DEMONFT) on Base, not a wallet",
  },
  {
    name: "busy EOA",
    address: devnetAccounts.activeOnBase.address,
    chain: "base",
    check: "ok",
    deep: "ok",
    code: "active_wallet",
    says: "3 outgoing transactions of its own",
  },
  {
    name: "receive-only EOA",
    address: devnetAccounts.receiveOnlyOnBase.address,
    chain: "base",
    check: "caution",
    deep: "caution",
    code: "receive_only",
    says: "Holds ETH and USDC on Base but has never sent a transaction",
  },
  {
    name: "OpenZeppelin ERC-1155 collection",
    address: recipientKinds.multiTokenOnBase,
    chain: "base",
    check: "warn",
    deep: "warn",
    code: "nft_contract",
    says: "NFT collection on Base, not a wallet",
  },
  {
    name: "upgradeable ERC-20 behind an OpenZeppelin ERC-1967 proxy",
    address: recipientKinds.upgradeableTokenOnBase,
    chain: "base",
    check: "danger",
    deep: "danger",
    code: "token_contract",
    says: "Token contract (DEMOUP) on Base, not a wallet",
  },
  {
    name: "Uniswap V2 pair (published UniswapV2Factory and UniswapV2Pair)",
    address: recipientKinds.uniswapV2PairOnBase,
    chain: "base",
    check: "danger",
    deep: "danger",
    code: "token_contract",
    says: "Token contract (UNI-V2) on Base, not a wallet",
  },
  {
    name: "WETH9 (published) at Base's WETH address",
    address: recipientKinds.wethOnBase,
    chain: "base",
    check: "danger",
    deep: "danger",
    code: "token_contract",
    says: "Token contract (WETH) on Base, not a wallet",
    also: "protocol_contract",
  },
  {
    name: "Permit2 (its published sources compiled exactly, canonical address)",
    address: recipientKinds.permit2OnBase,
    chain: "base",
    check: "danger",
    deep: "danger",
    code: "protocol_contract",
    says: "Do not send: Permit2 cannot return funds to anyone",
  },
  // Wrong before, right now.
  {
    name: "ERC-7579 account (Kernel's interface, entrypoint() in lower case) used through EntryPoint v0.7",
    address: recipientKinds.usedModularAccountOnBase,
    chain: "base",
    check: "ok",
    deep: "ok",
    code: "active_wallet",
    says: "Active smart wallet (presend.demo-modular.v1) on Base",
  },
  {
    name: "the same account code, fresh: caution because unused",
    address: recipientKinds.freshModularAccountOnBase,
    chain: "base",
    check: "caution",
    deep: "caution",
    code: "unused_account",
    says: "deployed, never used",
  },
  {
    name: "Coinbase-Smart-Wallet-like account (multi-owner, UUPS behind ERC-1967) used through EntryPoint v0.6",
    address: recipientKinds.usedCoinbaseWalletOnBase,
    chain: "base",
    check: "ok",
    deep: "ok",
    code: "active_wallet",
    says: "Active smart wallet on Base",
  },
  {
    name: "the same Coinbase-Smart-Wallet-like account, fresh: caution because unused",
    address: recipientKinds.freshCoinbaseWalletOnBase,
    chain: "base",
    check: "caution",
    deep: "caution",
    code: "unused_account",
    says: "deployed, never used",
  },
  {
    name: "EOA holding only two spam ERC-20s, never sent",
    address: devnetAccounts.spamTokensOnlyOnBase.address,
    chain: "base",
    check: "caution",
    deep: "caution",
    code: "fresh_address",
    says: "no ETH, USDC, USDT or USDbC balance on Base",
  },
  {
    name: "exchange-style deposit forwarder",
    address: recipientKinds.depositForwarderOnEthereum,
    chain: "ethereum",
    check: "caution",
    deep: "caution",
    code: "deposit_forwarder",
    says: `in full to one collector (${devnetAccounts.exchangeCollector.address})`,
  },
  {
    name: "the same forwarder, deep check from a chain where it has no code",
    address: recipientKinds.depositForwarderOnEthereum,
    chain: "base",
    check: "caution",
    deep: "warn",
    code: "wrong_network",
    says: "Active on Ethereum, not on Base",
    deepFrom: "base",
    also: "deposit_address_elsewhere",
  },
  {
    name: "Optimism's L1StandardBridge (published artifact, canonical address)",
    address: recipientKinds.l1StandardBridgeOnEthereum,
    chain: "ethereum",
    check: "warn",
    deep: "warn",
    code: "protocol_contract",
    says: "bridged to the sender's own address on OP Mainnet",
  },
  {
    // Copied onto another network: nobody's wallet there, and no bridge code to act on it.
    name: "Optimism's L1StandardBridge address, checked on Base where it has no code",
    address: recipientKinds.l1StandardBridgeOnEthereum,
    chain: "base",
    check: "danger",
    deep: "danger",
    code: "protocol_contract_elsewhere",
    says: "OP Mainnet L1StandardBridge on Ethereum, not a wallet",
  },
  {
    name: "an EOA that handed control to a sweeper on Base, deep check from Ethereum",
    address: devnetAccounts.sweptOnBase.address,
    chain: "ethereum",
    check: "caution",
    deep: "danger",
    code: "eip7702_sweeper_elsewhere",
    says: "its key is likely stolen",
    deepFrom: "ethereum",
    also: "wrong_network",
  },
  {
    // Copied from a token's page and sent to on another chain: nobody holds a key for it there.
    name: "Ethereum's WETH contract address (token list), checked on Base where it has no code",
    address: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
    chain: "base",
    check: "danger",
    deep: "danger",
    code: "listed_token_contract",
    says: "The WETH token contract on Ethereum, not a wallet",
  },
  {
    name: "a vault that takes deposits only from EOAs (onlyEOA)",
    address: recipientKinds.eoaOnlyVaultOnBase,
    chain: "base",
    check: "warn",
    deep: "warn",
    code: "unknown_contract",
    says: "Unknown contract on Base",
  },
];

describe("recipients people really hit (real anvil chains, published artifacts)", () => {
  let world: World;
  let engine: Engine;
  let reader: ChainReader;

  beforeAll(() => {
    // Reads only: the run's shared world.
    world = sharedWorld();
    const rpcUrls = worldRpcUrls(world);
    reader = createChainReader({ rpcUrls });
    engine = createEngine({ reader });
  });

  it.each(rows)("$name", async (row) => {
    const input = { address: row.address, chain: row.deepFrom ?? row.chain };
    const check = await engine.check(input);
    const deep = await engine.deep(input);
    if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
    expect([check.report.verdict.level, deep.report.verdict.level]).toEqual([row.check, row.deep]);
    const verdict = row.deepFrom ? deep.report.verdict : check.report.verdict;
    const [deciding] = verdict.reasons;
    expect(deciding?.code).toBe(row.code);
    expect(`${verdict.headline} ${deciding?.message} ${verdict.next}`).toContain(row.says);
    const codes = verdict.reasons.map((reason) => reason.code);
    if (row.also) expect(codes).toContain(row.also);
    // A deposit address elsewhere is never graded as an arbitrary contract elsewhere.
    expect(codes).not.toContain("contract_elsewhere");
  });

  it("simulates the send from an EOA: an onlyEOA vault keeps it, the bridge takes it, a relay through a contract is refused", async () => {
    const facts = await reader.read(recipientKinds.eoaOnlyVaultOnBase, "base");
    expect(facts.receiveSimulation).toMatchObject({ outcome: "kept" });
    // Optimism's published L1StandardBridge (onlyEOA: no code at msg.sender) takes the send and
    // passes it to its messenger, for the sender's own L2 address: not "a native send would revert".
    const bridge = await reader.read(recipientKinds.l1StandardBridgeOnEthereum, "ethereum");
    expect(bridge.receiveSimulation).toMatchObject({
      outcome: "forwarded",
      forwardedTo: recipientKinds.opStackMessengerOnEthereum,
    });
    // The guard is real: the same send relayed by Multicall3 (what a contract sender does) reverts.
    const client = devnetClient("base", world.chains.base.rpcUrl);
    const relay = parseAbi([
      "struct Call3Value { address target; bool allowFailure; uint256 value; bytes callData; }",
      "struct Result { bool success; bytes returnData; }",
      "function aggregate3Value(Call3Value[] calls) payable returns (Result[] returnData)",
    ]);
    await expect(
      client.call({
        account: receiveSimulationSender,
        to: multicall3Address,
        value: 1n,
        data: encodeFunctionData({
          abi: relay,
          functionName: "aggregate3Value",
          args: [
            [
              {
                target: recipientKinds.eoaOnlyVaultOnBase,
                allowFailure: false,
                value: 1n,
                callData: "0x",
              },
            ],
          ],
        }),
        stateOverride: [{ address: receiveSimulationSender, balance: parseEther("1") }],
      }),
    ).rejects.toThrow();
  });

  it("simulates from the sender when given: a tx.origin gate keeps its customer's send, refuses others", async () => {
    const anyone = await reader.read(recipientKinds.originGateOnBase, "base");
    const customer = await reader.read(recipientKinds.originGateOnBase, "base", {
      sender: devnetAccounts.originGateCustomer.address,
    });
    expect(anyone.receiveSimulation?.outcome).toBe("rejected");
    expect(customer.receiveSimulation?.outcome).toBe("kept");
  });

  it("builds each row from real transactions: the state the verdicts rest on", async () => {
    const base = devnetClient("base", world.chains.base.rpcUrl);
    const ethereum = devnetClient("ethereum", world.chains.ethereum.rpcUrl);
    // The spam-only EOA holds both tokens and never sent.
    const spamHolder = devnetAccounts.spamTokensOnlyOnBase.address;
    for (const token of [recipientKinds.spamTokenAOnBase, recipientKinds.spamTokenBOnBase]) {
      const held = await base.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [spamHolder],
      });
      expect(held).toBe(parseEther("1000"));
    }
    expect(await base.getTransactionCount({ address: spamHolder })).toBe(0);
    // The forwarder passed its real deposit on to the collector, and the bridge its own to the
    // messenger (a plain ETH send from a wallet succeeded).
    expect(await ethereum.getBalance({ address: devnetAccounts.exchangeCollector.address })).toBe(
      parseEther("0.05"),
    );
    expect(await ethereum.getBalance({ address: recipientKinds.opStackMessengerOnEthereum })).toBe(
      parseEther("0.01"),
    );
    // The pair minted liquidity on real reserves; WETH holds a real deposit; the proxy's
    // implementation is the token's.
    const reserves = await base.readContract({
      address: recipientKinds.uniswapV2PairOnBase,
      abi: parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"]),
      functionName: "getReserves",
    });
    expect([reserves[0], reserves[1]]).toEqual([parseEther("100"), parseEther("100")]);
    expect(await base.getBalance({ address: recipientKinds.wethOnBase })).toBe(parseEther("0.5"));
    const proxied = await reader.read(recipientKinds.upgradeableTokenOnBase, "base");
    expect(proxied.implementation).toBe(recipientKinds.upgradeableTokenImplementationOnBase);
    // The used account's one UserOperation is counted by the EntryPoint.
    const nonce = await base.readContract({
      address: recipientKinds.entryPointV07OnBase,
      abi: parseAbi(["function getNonce(address, uint192) view returns (uint256)"]),
      functionName: "getNonce",
      args: [recipientKinds.usedModularAccountOnBase, 0n],
    });
    expect(nonce).toBe(1n);
    expect(recipientKinds.entryPointV07OnBase).toBe("0x0000000071727De22E5E9d8BAf0edAc6f37da032");
    // Permit2 runs at its canonical address, from its creation code's own constructor: its
    // EIP-712 domain is built for this chain and this address.
    expect(recipientKinds.permit2OnBase).toBe("0x000000000022D473030F116dDEE9F6B43aC78BA3");
    const permit2Domain = await base.readContract({
      address: recipientKinds.permit2OnBase,
      abi: parseAbi(["function DOMAIN_SEPARATOR() view returns (bytes32)"]),
      functionName: "DOMAIN_SEPARATOR",
    });
    expect(permit2Domain).toBe(
      domainSeparator({
        domain: {
          name: "Permit2",
          chainId: base.chain.id,
          verifyingContract: recipientKinds.permit2OnBase,
        },
      }),
    );
    const account = await reader.read(recipientKinds.usedModularAccountOnBase, "base");
    expect(account.entryPoint).toBe(recipientKinds.entryPointV07OnBase);
    // The Coinbase-Smart-Wallet-like account: its one UserOperation counted by the published
    // EntryPoint v0.6 at its canonical address, its owners as it keeps them, behind its proxy.
    expect(recipientKinds.entryPointV06OnBase).toBe("0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789");
    const v06Nonce = (wallet: Address) =>
      base.readContract({
        address: recipientKinds.entryPointV06OnBase,
        abi: parseAbi(["function getNonce(address, uint192) view returns (uint256)"]),
        functionName: "getNonce",
        args: [wallet, 0n],
      });
    expect(await v06Nonce(recipientKinds.usedCoinbaseWalletOnBase)).toBe(1n);
    expect(await v06Nonce(recipientKinds.freshCoinbaseWalletOnBase)).toBe(0n);
    const isOwner = await base.readContract({
      address: recipientKinds.usedCoinbaseWalletOnBase,
      abi: parseAbi(["function isOwnerAddress(address) view returns (bool)"]),
      functionName: "isOwnerAddress",
      args: [devnetAccounts.coinbaseWalletBackupOwner.address],
    });
    expect(isOwner).toBe(true);
    const wallet = await reader.read(recipientKinds.usedCoinbaseWalletOnBase, "base");
    expect(wallet).toMatchObject({
      kind: "smart-account",
      entryPoint: recipientKinds.entryPointV06OnBase,
      implementation: recipientKinds.coinbaseWalletImplementationOnBase,
      outgoingTxs: 1,
    });
  });

  it("still reads each address in one HTTP request per chain, a batch of at most 10 entries", async () => {
    const batch = buildFactsBatch(recipientKinds.l1StandardBridgeOnEthereum, "ethereum");
    console.log(
      "facts batch:",
      batch.map((entry) => `${entry.id} ${entry.method}`),
    );
    expect(batch.length).toBeLessThanOrEqual(maxBatchEntries);
    reader.clear();
    const before = reader.stats();
    await engine.deep({ address: recipientKinds.usedModularAccountOnBase, chain: "base" });
    const after = reader.stats();
    for (const name of chainNames) expect(after.perChain[name] - before.perChain[name]).toBe(1);
  });
});
