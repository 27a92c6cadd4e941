import type { ArbitrumRail, ArbitrumRailService } from "@presend/shared/api/snapshots/arbitrumRail";
import { type Inflow, snapshotLicense } from "@presend/shared/api/snapshots/snapshotCommon";
import { InputError } from "@presend/shared/errors/InputError";
import type { Address } from "viem";
import type { Observation } from "../collect";
import { buildLandscape } from "./buildLandscape";
import { usdc } from "./usdc";

const none = { tx: 0, raw: 0n, senders: 0 };

function requireEvm(observation: Observation): NonNullable<Observation["evm"]> {
  if (!observation.evm) throw new InputError("arbitrum-rail needs the EVM inflow measurement");
  return observation.evm;
}

/**
 * The Arbitrum-rail measurement: services that declare Arbitrum, their payTo addresses and the
 * USDC those received on Arbitrum versus Base over 30 days.
 * @example const rail = buildArbitrumRail(observation);
 */
export function buildArbitrumRail(observation: Observation): ArbitrumRail {
  const evm = requireEvm(observation);
  const statuses = new Map(buildLandscape(observation).services.map((s) => [s.slug, s.status]));
  const inflowOf = (chain: "arbitrum" | "base", address: Address): Inflow => {
    const raw = evm[chain].inflows.get(address) ?? none;
    return { tx: raw.tx, usdc: usdc(raw.raw), distinct_senders: raw.senders };
  };

  const services: ArbitrumRailService[] = [];
  const declaredBy = new Map<Address, string[]>();
  const arbitrumInflowSlugs = new Set<string>();
  for (const service of observation.services) {
    const declarations = observation.declarations.get(service.slug);
    const discovery = observation.discovery.get(service.slug);
    const dirListsArbitrum = declarations?.dirNetworks.includes("arbitrum") ?? false;
    const liveDeclaresArbitrum = declarations?.liveNetworks.includes("arbitrum") ?? false;
    const published = [
      ...new Set(
        (declarations?.evm ?? [])
          .filter((entry) => entry.from === "live")
          .map((entry) => entry.address),
      ),
    ].sort();
    services.push({
      slug: service.slug,
      base_url: service.url,
      dir_status: statuses.get(service.slug) ?? "offline",
      dir_lists_arbitrum: dirListsArbitrum,
      live_doc_reachable: discovery?.reachable ?? false,
      live_doc_declares_arbitrum: liveDeclaresArbitrum,
      doc_shape: discovery?.docShape ?? "none",
      payto_published: published,
    });
    const addresses = [...new Set((declarations?.evm ?? []).map((entry) => entry.address))];
    if (addresses.some((address) => (evm.arbitrum.inflows.get(address)?.tx ?? 0) > 0)) {
      arbitrumInflowSlugs.add(service.slug);
    }
    if (!dirListsArbitrum && !liveDeclaresArbitrum) continue;
    for (const address of addresses) {
      declaredBy.set(address, [...(declaredBy.get(address) ?? []), service.slug]);
    }
  }

  const addresses = [...declaredBy.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([address, slugs]) => ({
      address,
      declared_by: [...new Set(slugs)].sort(),
      arbitrum_30d: inflowOf("arbitrum", address),
      base_30d: inflowOf("base", address),
    }));
  const totals = (chain: "arbitrum" | "base") => {
    const raws = addresses.map(({ address }) => evm[chain].inflows.get(address) ?? none);
    return {
      tx: raws.reduce((sum, raw) => sum + raw.tx, 0),
      usdc: usdc(raws.reduce((sum, raw) => sum + raw.raw, 0n)),
      // Senders are counted per address; one payer of two services counts twice.
      distinct_senders: raws.reduce((sum, raw) => sum + raw.senders, 0),
      addresses_with_inflow: raws.filter((raw) => raw.tx > 0).length,
    };
  };

  const declaring = services.filter((s) => s.dir_lists_arbitrum || s.live_doc_declares_arbitrum);
  const dirListing = services.filter((s) => s.dir_lists_arbitrum);
  const dirReachable = dirListing.filter((s) => s.live_doc_reachable);
  const dirConfirmed = dirReachable.filter((s) => s.live_doc_declares_arbitrum);
  const dirReceiving = dirConfirmed.filter((s) => arbitrumInflowSlugs.has(s.slug));
  const arbitrum = totals("arbitrum");
  const base = totals("base");
  const slugs = (list: ArbitrumRailService[]) => list.map((s) => s.slug);

  return {
    title: "x402 Arbitrum rail: declared versus used",
    what: "Which x402 services declare Arbitrum as a payment network, whether their live documents confirm it, and how much USDC their payTo addresses received on Arbitrum compared with Base over 30 days.",
    generated_at: observation.generatedAt,
    source: observation.provenance.source,
    note: observation.provenance.note,
    window: {
      ...observation.window30,
      arbitrum: { from_block: evm.arbitrum.fromBlock, to_block: evm.arbitrum.toBlock },
      base: { from_block: evm.base.fromBlock, to_block: evm.base.toBlock },
    },
    sources: [observation.directoryRef, observation.discoveryRef, ...evm.refs],
    method: [
      "List every service of the directory and note whether it lists Arbitrum.",
      "Fetch each service's /.well-known/x402, /openapi.json and one unpaid request's 402 challenge; collect the declared payTo addresses and networks (x402 v1 names and v2 CAIP-2 ids).",
      "For every EVM payTo of a service that declares Arbitrum (directory or live), read USDC Transfer(to=payTo) logs with eth_getLogs on Arbitrum and Base.",
      "The window's blocks are found by binary search on block timestamps; a block range a provider refuses is halved and retried.",
      "tx counts distinct transactions, usdc sums the transferred amounts, distinct_senders counts distinct from addresses per payTo.",
    ],
    headline: {
      services_listed: services.length,
      services_declaring_arbitrum: declaring.length,
      services_reachable: services.filter((s) => s.live_doc_reachable).length,
      services_live_doc_declares_arbitrum: services.filter((s) => s.live_doc_declares_arbitrum)
        .length,
      payto_addresses: addresses.length,
      arbitrum_30d: arbitrum,
      base_30d: base,
    },
    cascade: [
      { step: "listed in the directory", services: services.length },
      { step: "directory lists Arbitrum", services: dirListing.length },
      { step: "of those, live documents reachable", services: dirReachable.length },
      { step: "of those, live documents declare Arbitrum", services: dirConfirmed.length },
      {
        step: "of those, payTo received USDC on Arbitrum in 30 days",
        services: dirReceiving.length,
      },
    ],
    read: [
      `${dirListing.length} of ${services.length} listed services claim Arbitrum in the directory; the live documents of ${dirConfirmed.length} confirm it.`,
      `Their ${addresses.length} payTo addresses received ${arbitrum.usdc} USDC in ${arbitrum.tx} transactions on Arbitrum and ${base.usdc} USDC in ${base.tx} transactions on Base.`,
      "Inflow counts every USDC transfer to a payTo address, x402 settlements and any other payment alike.",
    ],
    triangulation: {
      dir_and_doc_and_chain: slugs(
        services.filter(
          (s) =>
            s.dir_lists_arbitrum && s.live_doc_declares_arbitrum && arbitrumInflowSlugs.has(s.slug),
        ),
      ),
      dir_only: slugs(
        services.filter((s) => s.dir_lists_arbitrum && !s.live_doc_declares_arbitrum),
      ),
      doc_only: slugs(
        services.filter((s) => !s.dir_lists_arbitrum && s.live_doc_declares_arbitrum),
      ),
      chain_without_declaration: slugs(
        services.filter(
          (s) =>
            !s.dir_lists_arbitrum &&
            !s.live_doc_declares_arbitrum &&
            arbitrumInflowSlugs.has(s.slug),
        ),
      ),
    },
    addresses,
    services,
    license: snapshotLicense,
    cite_as: `presend, x402 Arbitrum rail, snapshot of ${observation.asOf}, ${snapshotLicense}`,
  };
}
