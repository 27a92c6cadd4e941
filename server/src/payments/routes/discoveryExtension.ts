import {
  type ChainFacts,
  CheckRequestSchema,
  DeepReportSchema,
  ReportSchema,
} from "@presend/shared/api/report";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import { buildDeepReport } from "@presend/shared/verdict/buildDeepReport";
import { buildReport } from "@presend/shared/verdict/buildReport";
import { declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { z } from "zod";
import { exampleRequest, type PaidPath } from "../paidRoutes";
import { truncateJsonSchema, withoutMeta } from "../truncateJsonSchema";

// An example report, built by the verdict code itself from the facts of an active wallet.
const activeWallet = (name: ChainName): ChainFacts => ({
  name,
  chainId: chains[name].id,
  status: "ok",
  isContract: false,
  kind: "eoa",
  kindLabel: "wallet (EOA)",
  outgoingTxs: 4,
  native: null,
  usdc: null,
  usdt: null,
  gas: null,
  blockNumber: "1",
});
const exampleInput = {
  address: exampleRequest.address,
  checksum: { status: "valid" as const, message: "Address checksum is correct." },
  target: activeWallet("base"),
  checkedAt: "2026-11-22T00:00:00.000Z",
};

/**
 * The official bazaar discovery declaration of a paid route, so a cataloguing facilitator can
 * list it: the JSON body it takes and the report it returns, both derived from the zod schemas
 * the API validates with. The report schema is cut to two levels: every 402 carries it in a
 * header, and a catalogue needs the shape, not every nested field.
 * @example extensions: { ...discoveryExtension("/check") }
 */
export function discoveryExtension(path: PaidPath) {
  const report = path === "/deep" ? DeepReportSchema : ReportSchema;
  const built =
    path === "/deep"
      ? buildDeepReport({ ...exampleInput, others: [activeWallet("ethereum")] })
      : buildReport(exampleInput);
  const example = { ...built, report: upToVerdict(built.report) };
  return declareDiscoveryExtension({
    bodyType: "json",
    input: { ...exampleRequest },
    inputSchema: withoutMeta(z.toJSONSchema(CheckRequestSchema, { io: "input" })),
    output: { example, schema: truncateJsonSchema(withoutMeta(z.toJSONSchema(report)), 2) },
  });
}

/**
 * The example's copyable text up to its verdict line. Every 402 carries the example in a header
 * and the payer echoes it in its payment header: the whole text (about 2 KB for /deep) took the
 * 402 of a server that offers channels over 15 KB, and the official client's payment for /deep
 * over the 15 KB the API accepts (exact) or over Node's 16 KB of request headers (a deposit).
 */
function upToVerdict(text: string): string {
  const next = text.indexOf("\nNext:");
  return next === -1 ? text : `${text.slice(0, next)}\n…`;
}
