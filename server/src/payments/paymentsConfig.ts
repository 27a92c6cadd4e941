import { addressPattern } from "@presend/shared/address/addressPattern";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { z } from "zod";
import { AttestationPrivateKeySchema } from "./attestation/loadAttestationKey";
import { RemoteFacilitatorSchema } from "./facilitator/createFacilitatorClient";
import { paidPrices } from "./paidRoutes";
import { paymentNetworks, usdcOn } from "./paymentNetworks";

const AddressSchema = z.string().regex(addressPattern, "expected 0x followed by 40 hex");
const BaseUnitsSchema = z.string().regex(/^[1-9]\d*$/, "expected USDC base units, e.g. 10000");

/** Everything payment-related the server needs; parsed once at start (a bad field names itself). */
export const PaymentsConfigSchema = z
  .object({
    /**
     * CAIP-2 network of the payment: Base mainnet (the local world runs chain id 8453 too), or
     * Base Sepolia for an operator's dry run (PRESEND_NETWORK=testnet).
     */
    network: z
      .enum([paymentNetworks.mainnet.network, paymentNetworks.testnet.network])
      .default(paymentNetworks.mainnet.network),
    /**
     * JSON-RPC URLs of the payment network, asked in order (a call the first does not answer goes
     * to the next): the bookkeeping reads and the local facilitator's settlements go through them.
     */
    baseRpcUrls: z.array(z.url()).min(1),
    /** The EIP-3009 token paid in: the network's USDC unless given. */
    asset: AddressSchema.optional(),
    facilitator: z.discriminatedUnion("type", [
      z.object({
        type: z.literal("local"),
        /** Key of the account that submits settlements and pays their gas. */
        privateKey: z.string().regex(bytes32Pattern, "expected a 32-byte hex private key"),
      }),
      RemoteFacilitatorSchema,
    ]),
    /** Where payments go (PAY_TO). */
    payTo: AddressSchema,
    /** Private ES256 JWK (kid presend-YYYY-MM) that signs the payee attestation. */
    attestationKey: AttestationPrivateKeySchema,
    /**
     * Key of the server's receiver authorizer (RECEIVER_AUTHORIZER_KEY): it signs the claims and
     * refunds of batch-settlement channels. Without it only `exact` is offered.
     */
    receiverAuthorizerKey: z
      .string()
      .regex(bytes32Pattern, "expected a 32-byte hex private key")
      .optional(),
    prices: z.object({ "/check": BaseUnitsSchema, "/deep": BaseUnitsSchema }).default(paidPrices()),
  })
  .transform((config) => {
    const usdc = usdcOn(config.network);
    // The token's EIP-712 domain goes into every requirement's extra: the payer signs over it.
    return { ...config, asset: config.asset ?? usdc.address, assetDomain: usdc.domain };
  });
export type PaymentsConfigInput = z.input<typeof PaymentsConfigSchema>;
export type PaymentsConfig = z.output<typeof PaymentsConfigSchema>;
