import { createServer } from "node:net";
import { type Address, getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

/** A new address nobody has used: fresh on every chain, and never in any cache. */
export function randomAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

/** An address-poisoning lookalike: same first 4 and last 4 hex characters, another middle. */
export function lookalikeOf(address: Address): Address {
  const hex = address.slice(2).toLowerCase();
  const middle = hex
    .slice(4, -4)
    .split("")
    .map((c) => ((Number.parseInt(c, 16) + 1) % 16).toString(16))
    .join("");
  return getAddress(`0x${hex.slice(0, 4)}${middle}${hex.slice(-4)}`);
}

/** A loopback port with nothing listening (connections are refused at once). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
