/**
 * keccak256 of the runtime code of the proxies Safe's proxy factories deploy, by release. A proxy
 * keeps its singleton in storage, so its code is the same for every Safe of that release however
 * it was deployed. 1.3.0 (npm @gnosis.pm/safe-contracts) and 1.4.1 (npm
 * @safe-global/safe-contracts) are the published artifacts' code, which the local world deploys;
 * 1.5.0 as Safe's own safenet tooling lists it. Older proxies (1.1.1 and before) are not listed.
 */
const safeProxyCodeHashes: Readonly<Record<string, string>> = {
  "0xb89c1b3bdf2cf8827818646bce9a8f6e372885f8c55e5c07acbd307cb133b000": "1.3.0",
  "0xd7d408ebcd99b2b70be43e20253d6d92a8ea8fab29bd3be7f55b10032331fb4c": "1.4.1",
  "0x4e381985ca68b3e5d27b4425fa581c19cf33146d3f887a3cfca96f55528ea46f": "1.5.0",
};

/**
 * The Safe release whose proxy has this runtime code hash; null for any other code (a contract
 * that answers like a Safe without being one of Safe's proxies, which no Safe factory can make).
 * @example findSafeProxyVersion("0xb89c1b3bdf2cf8827818646bce9a8f6e372885f8c55e5c07acbd307cb133b000") // "1.3.0"
 */
export function findSafeProxyVersion(codeHash: string): string | null {
  return safeProxyCodeHashes[codeHash.toLowerCase()] ?? null;
}
