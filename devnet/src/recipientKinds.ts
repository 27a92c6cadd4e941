import { type Address, getContractAddress } from "viem";
import { optimism } from "viem/chains";
import { devnetAccounts } from "./devnetAccounts";

const { recipientsDeployer, recipientsEthereumDeployer } = devnetAccounts;
const deployed = (nonce: bigint) => getContractAddress({ from: recipientsDeployer.address, nonce });
const deployedOnEthereum = (nonce: bigint) =>
  getContractAddress({ from: recipientsEthereumDeployer.address, nonce });

/**
 * The recipients people really hit, beyond the demo table, as the seeding builds them with real
 * transactions (seedRecipientKinds.ts): contracts written here where none is published, and
 * Optimism's published L1StandardBridge at its canonical address on ethereum.
 * @example recipientKinds.depositForwarderOnEthereum // an exchange-style deposit address
 */
export const recipientKinds = {
  /** Keeps native deposits only from EOAs (msg.sender == tx.origin, no code at msg.sender). */
  eoaOnlyVaultOnBase: deployed(0n),
  /** Keeps native deposits only when tx.origin is originGateCustomer. */
  originGateOnBase: deployed(1n),
  /** ERC-7579 account (Kernel's interface) used by one UserOperation through EntryPoint v0.8. */
  usedModularAccountOnBase: deployed(2n),
  /** The same account code, deployed and funded, never used. */
  freshModularAccountOnBase: deployed(3n),
  /** Two OpenZeppelin ERC-20s sent to spamTokensOnlyOnBase (presend reads neither). */
  spamTokenAOnBase: deployed(4n),
  spamTokenBOnBase: deployed(6n),
  /** Forwards every native deposit to exchangeCollector; it forwarded a real one. */
  depositForwarderOnEthereum: deployedOnEthereum(0n),
  /** What the bridge sends deposits through (messenger, system and superchain config). */
  opStackMessengerOnEthereum: deployedOnEthereum(1n),
  /** The published L1StandardBridge implementation behind the canonical proxy. */
  l1StandardBridgeImplementationOnEthereum: deployedOnEthereum(2n),
  /** OP Mainnet's L1StandardBridge proxy, at its canonical address (viem's chain data). */
  l1StandardBridgeOnEthereum: optimism.contracts.l1StandardBridge[1].address as Address,
};
