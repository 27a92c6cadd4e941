export type KnownAccountImplementation = {
  /** Lower-case implementation address (the EIP-1967 slot of the account's proxy). */
  address: string;
  vendor: string;
  /**
   * True when the vendor's factory deploys the same account at the same address on every chain,
   * so the owner can deploy it on a chain where it does not exist yet.
   */
  sameAddressOnEveryChain: boolean;
};

// Coinbase Smart Wallet: implementation behind every account's ERC-1967 proxy; the factory
// 0x0BA5ED0c6AA8c49038F819E587E2633c4A9F428a deploys an owner's account at the same address on
// every chain it supports.
const implementations: readonly KnownAccountImplementation[] = [
  {
    address: "0x000100abaad02f1cfc8bbe32bd5a564817339e72",
    vendor: "Coinbase Smart Wallet",
    sameAddressOnEveryChain: true,
  },
];

const byAddress = new Map(implementations.map((entry) => [entry.address, entry]));

/**
 * The smart-account vendor behind a proxy's implementation address, when it is a known one.
 * @example findAccountImplementation("0x000100abaad02f1cfC8Bbe32bD5a564817339E72")?.vendor // "Coinbase Smart Wallet"
 */
export function findAccountImplementation(
  implementation: string,
): KnownAccountImplementation | undefined {
  return byAddress.get(implementation.toLowerCase());
}
