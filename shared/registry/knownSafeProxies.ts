/**
 * keccak256 of the runtime code of the proxies Safe's proxy factories deploy, by release. A proxy
 * keeps its singleton in storage, so its code is the same for every Safe of that release however
 * it was deployed. Each hash is of the proxy's deployed bytecode as its release is published on
 * npm: 1.0.0, 1.1.1 and 1.2.0 in @gnosis.pm/safe-contracts (build/contracts/Proxy.json, and
 * GnosisSafeProxy.json for 1.2.0), 1.3.0 in @gnosis.pm/safe-contracts 1.3.0 and 1.4.1 in
 * @safe-global/safe-contracts (which the local world deploys), 1.5.0 in
 * @safe-global/safe-smart-account. A 1.0.0 proxy does not answer masterCopy().
 */
const safeProxyCodeHashes: Readonly<Record<string, string>> = {
  "0x9999daa94896b1dc51734d94c68aec28587d45e0584a50b319cb99b1f335d99b": "1.0.0",
  "0xaea7d4252f6245f301e540cfbee27d3a88de543af8e49c5c62405d5499fab7e5": "1.1.1",
  "0x958a485acd4eff0908ba6c67238d33eedec70bc99115074ad38ae14d1017f9db": "1.2.0",
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
