import type { SourceRef, Window } from "@presend/shared/api/snapshots/snapshotCommon";
import { type Address, getAddress, isAddress } from "viem";
import { type NetworkId, normalizeNetwork } from "./networks";
import { solanaAddressProblem } from "./solanaAddress";
import type { DirectoryService, DirectorySource } from "./sources/directorySource";
import type { Discovery, DiscoverySource } from "./sources/discoverySource";
import type { EvmInflowResult, EvmInflowSource } from "./sources/evmInflowSource";
import type { PayToCapture, PayToHistory } from "./sources/payToHistory";
import type { SolanaInflowResult, SolanaInflowSource } from "./sources/solanaInflowSource";

/** Every source the generator reads, each replaceable (live HTTP/RPC, fixture replay, local anvil). */
export type Sources = {
  directory: DirectorySource;
  discovery: DiscoverySource;
  discoveryRef: SourceRef;
  evm: {
    arbitrum: { source: EvmInflowSource; ref: SourceRef };
    base: { source: EvmInflowSource; ref: SourceRef };
  };
  solana: { source: SolanaInflowSource; ref: SourceRef };
  history: PayToHistory;
};

/** What a service declares, from the directory and its live documents, split by address family. */
export type Declarations = {
  slug: string;
  dirNetworks: NetworkId[];
  liveNetworks: NetworkId[];
  /** EVM payTo per network id, EIP-55 form. */
  evm: { network: NetworkId; address: Address; from: "directory" | "live" }[];
  solana: { address: string; from: "directory" | "live" }[];
  invalid: { address: string; network: string; reason: string }[];
};

/** Everything measured for one run; the builders are pure functions of it. */
export type Observation = {
  asOf: string;
  generatedAt: string;
  window30: Window;
  window90: Window;
  provenance: { source: string; note: string };
  directoryRef: SourceRef;
  services: DirectoryService[];
  discovery: Map<string, Discovery>;
  declarations: Map<string, Declarations>;
  evm?: { arbitrum: EvmInflowResult; base: EvmInflowResult; refs: SourceRef[] };
  solana?: { result: SolanaInflowResult; ref: SourceRef };
  discoveryRef: SourceRef;
  history: PayToCapture[];
};

const dayMs = 86_400_000;

function windowEnding(to: Date, days: number): Window {
  return { from: new Date(to.getTime() - days * dayMs).toISOString(), to: to.toISOString(), days };
}

function declarationsOf(service: DirectoryService, discovery: Discovery | undefined): Declarations {
  const declarations: Declarations = {
    slug: service.slug,
    dirNetworks: [],
    liveNetworks: [],
    evm: [],
    solana: [],
    invalid: [],
  };
  const rawNetworks = service.networks ?? (service.network ? [service.network] : []);
  for (const raw of rawNetworks) {
    const network = normalizeNetwork(raw);
    if (network && !declarations.dirNetworks.includes(network.id))
      declarations.dirNetworks.push(network.id);
  }
  const add = (network: string, address: string, from: "directory" | "live") => {
    const info = normalizeNetwork(network);
    if (!info) return;
    if (from === "live" && !declarations.liveNetworks.includes(info.id))
      declarations.liveNetworks.push(info.id);
    if (info.family === "evm") {
      if (!isAddress(address, { strict: false })) {
        declarations.invalid.push({ address, network, reason: "not a 20-byte hex address" });
        return;
      }
      const checksummed = getAddress(address);
      if (
        !declarations.evm.some(
          (entry) =>
            entry.network === info.id && entry.address === checksummed && entry.from === from,
        )
      ) {
        declarations.evm.push({ network: info.id, address: checksummed, from });
      }
      return;
    }
    const problem = solanaAddressProblem(address);
    if (problem) {
      if (!declarations.invalid.some((entry) => entry.address === address)) {
        declarations.invalid.push({ address, network, reason: problem });
      }
      return;
    }
    if (!declarations.solana.some((entry) => entry.address === address && entry.from === from)) {
      declarations.solana.push({ address, from });
    }
  };
  for (const entry of service.pay_to ?? []) add(entry.network, entry.address, "directory");
  for (const entry of discovery?.declared ?? []) add(entry.network, entry.payTo, "live");
  declarations.dirNetworks.sort();
  declarations.liveNetworks.sort();
  return declarations;
}

/** All payTo addresses of a service, EVM (EIP-55) and Solana, sorted and distinct. */
export function payToOf(declarations: Declarations): string[] {
  return [
    ...new Set([
      ...declarations.evm.map((entry) => entry.address),
      ...declarations.solana.map((entry) => entry.address),
    ]),
  ].sort();
}

export type CollectOptions = {
  sources: Sources;
  asOf: string;
  /** The end of the windows; midnight of asOf when the date was given, so runs are reproducible. */
  windowEnd: Date;
  provenance: { source: string; note: string };
  /** Directory only (landscape) or everything (the measurements). */
  measure: boolean;
};

/**
 * Reads every source once for one generator run.
 * @example const observation = await collect({ sources, asOf: "2026-11-21", windowEnd, provenance, measure: true });
 */
export async function collect(options: CollectOptions): Promise<Observation> {
  const { sources } = options;
  const services = (await sources.directory.listServices()).sort((a, b) =>
    a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0,
  );
  const window30 = windowEnding(options.windowEnd, 30);
  const window90 = windowEnding(options.windowEnd, 90);
  const discovery = new Map<string, Discovery>();
  if (options.measure) {
    // Sequential on purpose: polite to the services and deterministic in the order of requests.
    for (const service of services)
      discovery.set(service.slug, await sources.discovery.discover(service.url));
  }
  const declarations = new Map(
    services.map((service) => [service.slug, declarationsOf(service, discovery.get(service.slug))]),
  );
  const observation: Observation = {
    asOf: options.asOf,
    generatedAt: options.windowEnd.toISOString(),
    window30,
    window90,
    provenance: options.provenance,
    directoryRef: sources.directory.ref,
    services,
    discovery,
    declarations,
    discoveryRef: sources.discoveryRef,
    history: [],
  };
  if (!options.measure) return observation;

  const window = { from: new Date(window30.from), to: new Date(window30.to) };
  const evmAddresses = [
    ...new Set([...declarations.values()].flatMap((entry) => entry.evm.map((evm) => evm.address))),
  ].sort();
  const solanaAddresses = [
    ...new Set(
      [...declarations.values()].flatMap((entry) => entry.solana.map((sol) => sol.address)),
    ),
  ].sort();
  observation.evm = {
    arbitrum: await sources.evm.arbitrum.source.measure(evmAddresses, window),
    base: await sources.evm.base.source.measure(evmAddresses, window),
    refs: [sources.evm.arbitrum.ref, sources.evm.base.ref],
  };
  observation.solana = {
    result: await sources.solana.source.measure(solanaAddresses, window),
    ref: sources.solana.ref,
  };
  const today: PayToCapture = {
    date: options.asOf,
    services: Object.fromEntries(
      [...declarations.values()].map((entry) => [entry.slug, payToOf(entry)]),
    ),
  };
  const earlier = await sources.history.captures(window90.from.slice(0, 10), options.asOf);
  observation.history = [...earlier.filter((capture) => capture.date !== options.asOf), today];
  await sources.history.record(today);
  return observation;
}
