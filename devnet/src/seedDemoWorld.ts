import { type ChainName, chains } from "@presend/shared/chains/chains";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import { type Abi, type Address, type Hex, isAddressEqual, parseEther, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { artifacts } from "./contracts/artifacts";
import { burnAddress, demoAccounts, demoContracts } from "./demoWorld";
import { type DevnetAccount, devnetAccounts } from "./devnetAccounts";
import type { DevnetClient } from "./devnetClient";
import { mintStablecoin } from "./mintStablecoin";
import { seedRecipientKindsOnBase, seedRecipientKindsOnEthereum } from "./seedRecipientKinds";
import { seedSenderWorldOnBase } from "./seedSenderWorld";
import { seedSafeOnEthereum, seedWalletKindsOnBase } from "./seedWalletKinds";

const signer = (account: DevnetAccount) => privateKeyToAccount(account.privateKey);
const faucet = signer(devnetAccounts.faucet);
const usdc = (amount: string) => parseUnits(amount, 6);

async function sendEther(client: DevnetClient, from: DevnetAccount, to: Address, ether: string) {
  await client.confirm(
    client.sendTransaction({ account: signer(from), to, value: parseEther(ether) }),
  );
}

async function callContract(
  client: DevnetClient,
  options: {
    from: DevnetAccount;
    address: Address;
    abi: Abi;
    functionName: string;
    args: unknown[];
  },
) {
  const { from, ...call } = options;
  await client.confirm(client.writeContract({ account: signer(from), ...call }));
}

async function deploy(
  client: DevnetClient,
  options: { from: DevnetAccount; abi: Abi; bytecode: Hex; args?: unknown[]; expected: Address },
) {
  const receipt = await client.confirm(
    client.deployContract({
      account: signer(options.from),
      abi: options.abi,
      bytecode: options.bytecode,
      args: options.args ?? [],
    }),
  );
  // demoWorld documents the address from the deployer's nonce; a drift here would mislead the README.
  if (!receipt.contractAddress || !isAddressEqual(receipt.contractAddress, options.expected)) {
    throw new UpstreamError(
      `deployed at ${receipt.contractAddress}, demo world expects ${options.expected}`,
    );
  }
}

async function seedBase(client: DevnetClient) {
  const { usdc: baseUsdc, usdt: baseUsdt } = chains.base;
  const mint = (token: Address, to: Address, amount: bigint) =>
    mintStablecoin(client, { token, minter: faucet, to, amount });
  const { activeOnBase, baseDeployer, facilitator, payer, receiveOnlyOnBase } = devnetAccounts;

  // Contracts first: the 7702 delegate must exist before anyone delegates to it.
  await sendEther(client, devnetAccounts.faucet, baseDeployer.address, "5");
  await deploy(client, {
    from: baseDeployer,
    ...artifacts.DemoGuestbook,
    expected: demoContracts.guestbookOnBase,
  });
  await deploy(client, {
    from: baseDeployer,
    ...artifacts.DemoBatchExecutor,
    expected: demoContracts.batchExecutorOnBase,
  });

  // Active EOA: funded, then sends ETH, USDC and calls a contract (nonce 3).
  await sendEther(client, devnetAccounts.faucet, activeOnBase.address, "5");
  await mint(baseUsdc.address, activeOnBase.address, usdc("2500"));
  await mint(baseUsdt.address, activeOnBase.address, usdc("100"));
  await sendEther(client, activeOnBase, faucet.address, "0.25");
  await callContract(client, {
    from: activeOnBase,
    address: baseUsdc.address,
    abi: artifacts.PresendStablecoin.abi,
    functionName: "transfer",
    args: [faucet.address, usdc("40")],
  });
  await callContract(client, {
    from: activeOnBase,
    address: demoContracts.guestbookOnBase,
    abi: artifacts.DemoGuestbook.abi,
    functionName: "sign",
    args: ["gm from presend"],
  });

  // Receive-only: balances, never sent anything.
  await sendEther(client, devnetAccounts.faucet, receiveOnlyOnBase.address, "0.5");
  await mint(baseUsdc.address, receiveOnlyOnBase.address, usdc("150"));

  // Safes, an ERC-4337 account, EIP-7702 accounts, an ERC-20 and an ERC-721 (published code).
  await seedWalletKindsOnBase(client);

  // x402 roles: the payer pays in USDC, the facilitator pays settlement gas, payTo stays empty.
  await sendEther(client, devnetAccounts.faucet, payer.address, "1");
  await mint(baseUsdc.address, payer.address, usdc("1000"));
  await sendEther(client, devnetAccounts.faucet, facilitator.address, "10");

  await sendEther(client, devnetAccounts.faucet, burnAddress, "1");

  // Address poisoning, the demo address list and an exchange deposit address.
  await seedSenderWorldOnBase(client);
}

async function seedEthereum(client: DevnetClient) {
  await seedSafeOnEthereum(client);
  await mintStablecoin(client, {
    token: chains.ethereum.usdc.address,
    minter: faucet,
    to: demoAccounts.safeOnEthereum,
    amount: usdc("10000"),
  });
}

async function seedArbitrum(client: DevnetClient) {
  const { activeOnArbitrumOnly, bridgedUsdcOnlyOnArbitrum } = devnetAccounts;
  const { usdc: arbitrumUsdc, usdcBridged } = chains.arbitrum;
  if (!usdcBridged) throw new ConfigurationError("arbitrum has no bridged USDC in shared/chains");
  await sendEther(client, devnetAccounts.faucet, activeOnArbitrumOnly.address, "2");
  await mintStablecoin(client, {
    token: arbitrumUsdc.address,
    minter: faucet,
    to: activeOnArbitrumOnly.address,
    amount: usdc("500"),
  });
  await sendEther(client, activeOnArbitrumOnly, faucet.address, "0.1");
  await callContract(client, {
    from: activeOnArbitrumOnly,
    address: arbitrumUsdc.address,
    abi: artifacts.PresendStablecoin.abi,
    functionName: "transfer",
    args: [faucet.address, usdc("25")],
  });
  await mintStablecoin(client, {
    token: usdcBridged.address,
    minter: faucet,
    to: bridgedUsdcOnlyOnArbitrum.address,
    amount: usdc("250"),
  });
}

// The recipients people really hit, beyond the demo table (recipientKinds.ts), are seeded beside
// the demo world on the same chain: their own funder and keys, so no nonce is shared.
const seeders: Partial<Record<ChainName, (client: DevnetClient) => Promise<void>>> = {
  base: async (client) => {
    await Promise.all([seedBase(client), seedRecipientKindsOnBase(client)]);
  },
  ethereum: async (client) => {
    await Promise.all([seedEthereum(client), seedRecipientKindsOnEthereum(client)]);
  },
  arbitrum: seedArbitrum,
};

/**
 * Creates the demo world's on-chain state with real transactions from the deterministic devnet
 * keys, on chains already prepared with prepareDevnetChain. Chains are seeded in parallel.
 * @example await seedDemoWorld({ base: baseClient, ethereum: ethClient, ... });
 */
export async function seedDemoWorld(clients: Record<ChainName, DevnetClient>): Promise<void> {
  await Promise.all(
    Object.entries(seeders).map(([name, seed]) => seed(clients[name as ChainName])),
  );
}
