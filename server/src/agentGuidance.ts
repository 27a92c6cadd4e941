import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { routePrices } from "@presend/shared/pricing/routePrices";

/**
 * How an agent should use the API, in a few lines: the OpenAPI document's `info.x-guidance`,
 * which x402 crawlers (`@agentcash/discovery`) hand to agents with the route list. Kept short
 * (under 4,000 characters, the crawlers' budget) and free of anything an operator configures.
 * @example documentConfig.info["x-guidance"] = agentGuidance
 */
export const agentGuidance = [
  "presend checks an EVM address before funds are sent to it. Call it every time you are about to send tokens or ETH, before signing the transfer.",
  "1. Free first: GET /validate?address=0x... answers the checksum verdict without payment. An invalid checksum is a typo: get the address again, do not pay to check it.",
  `2. Paid: POST /check (${formatUsdc(routePrices.check)}) reads one chain; POST /deep (${formatUsdc(routePrices.deep)}) reads the target chain and the four others, which catches the wrong network and the wrong token. Body: {"address": "0x...", "chain": "base", "from": "0x..."}; chain is one of base, ethereum, arbitrum, optimism, polygon (default base). Always give from, the account the money comes from: it detects address poisoning (a lookalike of an address that account paid before) and a first payment to a new recipient.`,
  "3. Paying: answer the 402 with an x402 v2 client (USDC on Base, scheme exact; where the 402 also offers batch-settlement, one deposit pays many checks). A bad body answers 400, 413 or 415 before any payment is asked for, so it costs nothing. 503 chain_unavailable is never charged.",
  "4. Acting on the report: verdict.level is ok, caution, warn or danger. danger: do not send. warn: do not send until the recipient confirms the address and the network. caution: do what verdict.next says (confirm with the recipient, or send a small test amount first). ok: nothing wrong was found, which is not a guarantee. Show the user verdict.headline, verdict.next and the reasons; never turn a caution, warn or danger into a go-ahead on your own. A fact that could not be read is named in the reasons and is never ok.",
  "5. Never pay twice for one check: send a payment-identifier with each payment and retry a lost answer with the same id. A 502 settlement_unknown names in PRESEND-RECEIPT where the report is kept; fetch it from /receipts with the paying wallet's signature or a SIGN-IN-WITH-X header.",
  "6. Reports are signed: PRESEND-REPORT-SIGNATURE is a detached ES256 JWS over the report and its settlement, by the attestation key that /.well-known/x402 publishes (with the keys that signed before it). Errors are JSON {error: {code, message}} with stable codes.",
].join("\n");
