import { docShapes, snapshotLicense } from "@presend/shared/api/snapshots/snapshotCommon";
import type { LiveDelta, SolanaRail } from "@presend/shared/api/snapshots/solanaRail";
import { InputError } from "@presend/shared/errors/InputError";
import { parseUnits } from "viem";
import type { Observation } from "../collect";
import { usdc } from "./usdc";

function requireSolana(observation: Observation): NonNullable<Observation["solana"]> {
  if (!observation.solana) throw new InputError("solana-rail needs the Solana inflow measurement");
  return observation.solana;
}

// Compares this run's per-address totals with the previous dated document's.
function deltaAgainst(previous: SolanaRail, current: SolanaRail, asOf: string): LiveDelta {
  const before = new Map(previous.addresses.map((a) => [a.address, a]));
  const detail = current.addresses
    .map((address) => {
      const old = before.get(address.address);
      const deltaRaw =
        parseUnits(address.usdc_inflow_30d, 6) - parseUnits(old?.usdc_inflow_30d ?? "0", 6);
      return {
        address: address.address,
        delta_tx: address.tx_30d - (old?.tx_30d ?? 0),
        delta_usdc: (deltaRaw < 0n ? "-" : "") + usdc(deltaRaw < 0n ? -deltaRaw : deltaRaw),
        deltaRaw,
      };
    })
    .filter((entry) => entry.delta_tx !== 0 || entry.deltaRaw !== 0n);
  const deltaRaw = detail.reduce((sum, entry) => sum + entry.deltaRaw, 0n);
  const deltaTx = detail.reduce((sum, entry) => sum + entry.delta_tx, 0);
  return {
    as_of: `${asOf}T00:00:00.000Z`,
    method: `difference of the 30-day totals per address against the snapshot of ${previous.generated_at.slice(0, 10)}`,
    delta_tx: deltaTx,
    delta_usdc: (deltaRaw < 0n ? "-" : "") + usdc(deltaRaw < 0n ? -deltaRaw : deltaRaw),
    addresses_with_new_activity: detail.filter((entry) => entry.delta_tx > 0).length,
    detail: detail.map(({ deltaRaw: _, ...entry }) => entry),
    quiet: detail.length === 0,
    running_totals_at_check: {
      tx_30d: current.headline.tx_30d,
      usdc_inflow_30d: current.headline.usdc_inflow_30d,
    },
  };
}

/**
 * The Solana-rail measurement: declared Solana payTo addresses and the USDC their token accounts
 * received over 30 days; `previous` (the last dated document) feeds the live deltas.
 * @example const rail = buildSolanaRail(observation, previousDocument);
 */
export function buildSolanaRail(observation: Observation, previous?: SolanaRail): SolanaRail {
  const solana = requireSolana(observation);
  const servicesOf = new Map<string, string[]>();
  const invalid = new Map<string, { reason: string; slugs: string[] }>();
  const dirLists: string[] = [];
  const liveDeclares: string[] = [];
  const shapes = new Map<string, number>();
  for (const declarations of observation.declarations.values()) {
    const slug = declarations.slug;
    const listed = declarations.dirNetworks.includes("solana");
    const declared = declarations.liveNetworks.includes("solana");
    if (listed) dirLists.push(slug);
    if (declared) liveDeclares.push(slug);
    for (const { address } of declarations.solana) {
      servicesOf.set(address, [...new Set([...(servicesOf.get(address) ?? []), slug])].sort());
    }
    for (const entry of declarations.invalid.filter((e) =>
      e.network.toLowerCase().startsWith("solana"),
    )) {
      const known = invalid.get(entry.address) ?? { reason: entry.reason, slugs: [] };
      invalid.set(entry.address, { ...known, slugs: [...new Set([...known.slugs, slug])].sort() });
    }
    if (listed || declared || declarations.solana.length > 0) {
      const shape = observation.discovery.get(slug)?.docShape ?? "none";
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    }
  }

  const addresses = [...servicesOf.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([address, services]) => {
      const inflow = solana.result.inflows.get(address) ?? { tx: 0, raw: 0n, inflowTx: 0 };
      return {
        address,
        services,
        tx_30d: inflow.tx,
        usdc_inflow_30d: usdc(inflow.raw),
        usdc_inflow_tx: inflow.inflowTx,
        raw: inflow.raw,
      };
    });
  const totalRaw = addresses.reduce((sum, a) => sum + a.raw, 0n);
  const top = addresses
    .filter((a) => a.raw > 0n)
    .sort((a, b) => (b.raw > a.raw ? 1 : b.raw < a.raw ? -1 : a.address < b.address ? -1 : 1))
    .slice(0, 10);
  const quality = solana.result.quality;
  const declaringServices = new Set([...servicesOf.values()].flat().concat(liveDeclares));

  const document: SolanaRail = {
    title: "x402 Solana rail: declared payTo addresses and their USDC inflow",
    what: "The Solana payTo addresses x402 services declare (directory and live documents) and the USDC their token accounts received over 30 days.",
    generated_at: observation.generatedAt,
    source: observation.provenance.source,
    note: observation.provenance.note,
    window: observation.window30,
    sources: [observation.directoryRef, observation.discoveryRef, solana.ref],
    method: [
      "Collect Solana payTo addresses from the directory and from each service's /.well-known/x402, /openapi.json and 402 challenge.",
      "Check each address is base58 of 32 bytes; invalid ones are listed, not measured.",
      "For each address, find its USDC token accounts (getTokenAccountsByOwner), page their signatures (getSignaturesForAddress) back to the window start, and read each transaction (getTransaction).",
      "tx_30d counts successful transactions in the window; usdc_inflow_30d sums the increases of the owner's USDC balance; usdc_inflow_tx counts those transactions.",
    ],
    headline: {
      services_declaring_solana: declaringServices.size,
      payto_addresses: addresses.length,
      addresses_with_inflow: addresses.filter((a) => a.raw > 0n).length,
      tx_30d: addresses.reduce((sum, a) => sum + a.tx_30d, 0),
      usdc_inflow_30d: usdc(totalRaw),
      invalid_addresses: [...invalid.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([address, entry]) => ({ address, declared_by: entry.slugs, reason: entry.reason })),
      shared_payto_clusters: addresses
        .filter((a) => a.services.length > 1)
        .map((a) => ({ address: a.address, services: a.services })),
    },
    addresses: addresses.map(({ raw: _, ...address }) => address),
    zero_activity_addresses: addresses.filter((a) => a.tx_30d === 0).map((a) => a.address),
    top_by_usdc_inflow_30d: top.map((a) => ({
      address: a.address,
      services: a.services,
      usdc_inflow_30d: a.usdc_inflow_30d,
    })),
    vs_directory_measurement: {
      directory_lists_solana: dirLists.length,
      live_doc_declares_solana: liveDeclares.length,
      listed_not_declared: dirLists.filter((slug) => !liveDeclares.includes(slug)).sort(),
      declared_not_listed: liveDeclares.filter((slug) => !dirLists.includes(slug)).sort(),
    },
    doc_shape_fragmentation: docShapes.map((shape) => ({
      doc_shape: shape,
      services: shapes.get(shape) ?? 0,
    })),
    measurement_quality: {
      token_accounts_read: quality.tokenAccounts,
      signatures_read: quality.signatures,
      transactions_read: quality.transactions,
      failed_transactions_skipped: quality.failedSkipped,
      notes: [
        ...quality.truncated.map(
          (owner) =>
            `${owner}: signature history truncated at the page limit; its figures are a lower bound`,
        ),
        ...(quality.truncated.length === 0
          ? ["every signature history reached the window start"]
          : []),
      ],
    },
    license: snapshotLicense,
    cite_as: `presend, x402 Solana rail, snapshot of ${observation.asOf}, ${snapshotLicense}`,
    last_delta_check: null,
    live_deltas: [],
  };
  if (previous && previous.generated_at < document.generated_at) {
    document.last_delta_check = document.generated_at;
    // Keep a bounded history: the last 30 checks.
    document.live_deltas = [
      ...previous.live_deltas,
      deltaAgainst(previous, document, observation.asOf),
    ].slice(-30);
  }
  return document;
}
