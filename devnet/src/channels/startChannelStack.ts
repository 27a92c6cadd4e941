import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { x402Facilitator } from "@x402/core/facilitator";
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import { type FacilitatorClient, x402ResourceServer } from "@x402/core/server";
import {
  type PaymentPayload,
  type PaymentRequirements,
  SettleError,
  type SettleResponse,
  type SupportedResponse,
} from "@x402/core/types";
import { type AuthorizerSigner, toClientEvmSigner } from "@x402/evm";
import {
  BatchSettlementEvmScheme as ChannelClientScheme,
  computeChannelId,
} from "@x402/evm/batch-settlement/client";
import { BatchSettlementEvmScheme as ChannelFacilitatorScheme } from "@x402/evm/batch-settlement/facilitator";
import {
  type BatchSettlementChannelManager,
  BatchSettlementEvmScheme as ChannelServerScheme,
  type ChannelStorage,
} from "@x402/evm/batch-settlement/server";
import type { Address, Hex, TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetClient } from "../devnetClient";
import { devnetFacilitatorSigner } from "../devnetFacilitatorSigner";

const network = `eip155:${chains.base.id}` as const;

export type ChannelStackOptions = {
  /** RPC URL of the world's Base chain (with the batch-settlement contracts installed). */
  rpcUrl: string;
  /** The wallet key that signs deposits (EIP-3009) and owns the channel. */
  payerKey: Hex;
  /** The session key that signs the vouchers (the channel's payerAuthorizer). */
  sessionKey: Hex;
  /** The facilitator key: it sends deposits, claims, settlements and refunds, and pays their gas. */
  facilitatorKey: Hex;
  /** The server's key that authorizes claims and refunds (the channel's receiverAuthorizer). */
  receiverAuthorizerKey: Hex;
  payTo: Address;
  /** What one check costs, in USDC base units (default: the /check price). */
  price?: bigint;
  /** What the client deposits when its channel needs funds (default: the scheme's own sizing). */
  deposit?: bigint;
  /** Where the server keeps its channels and vouchers (default: in memory, lost on restart). */
  storage?: ChannelStorage;
};

/** One paid check as the server saw it: paid with its settlement, or refused with the reason. */
export type ChannelPayment =
  | { paid: true; payload: PaymentPayload; settlement: SettleResponse }
  | { paid: false; payload: PaymentPayload; reason: string };

export type ChannelStack = {
  /** The `batch-settlement` requirements the server offers for one check. */
  requirements: PaymentRequirements;
  /** The payer's channel id (from the package's own computeChannelId). */
  channelId: Hex;
  /** One check paid through the official client, resource server and facilitator. */
  pay(): Promise<ChannelPayment>;
  /** The client's payload for the next check, not sent. */
  createPayload(): Promise<PaymentPayload>;
  /** Sends a payload to the server as a request would carry it (verify, the work, settle). */
  submit(payload: PaymentPayload): Promise<ChannelPayment>;
  /** The server's channel manager: claims, settlement and refunds through the facilitator. */
  manager: BatchSettlementChannelManager;
  /** The in-process facilitator, as the resource server reaches it. */
  facilitator: FacilitatorClient;
  serverScheme: ChannelServerScheme;
};

/**
 * The x402 `batch-settlement` scheme end to end on the local Base chain with the official
 * `@x402/evm` code only: its client (deposit by EIP-3009 through the deposit collector, vouchers
 * by a separate session key), its server scheme in an `x402ResourceServer` (voucher bookkeeping,
 * receiver authorizer), its facilitator in an `x402Facilitator` (on-chain deposit, claim, settle,
 * refund) and its channel manager. Everything but the HTTP transport: a payment travels as the
 * encoded headers would carry it.
 * @example const stack = await startChannelStack({ rpcUrl, payerKey, sessionKey, facilitatorKey, receiverAuthorizerKey, payTo });
 */
export async function startChannelStack(options: ChannelStackOptions): Promise<ChannelStack> {
  const client = devnetClient("base", options.rpcUrl);
  const payer = privateKeyToAccount(options.payerKey);
  const sessionKey = privateKeyToAccount(options.sessionKey);
  const receiverAuthorizer = privateKeyToAccount(options.receiverAuthorizerKey);

  const facilitatorScheme = new ChannelFacilitatorScheme(
    devnetFacilitatorSigner(client, privateKeyToAccount(options.facilitatorKey)),
  );
  const localFacilitator = new x402Facilitator().register(network, facilitatorScheme);
  const facilitator: FacilitatorClient = {
    verify: (payload, requirements) => localFacilitator.verify(payload, requirements),
    settle: (payload, requirements) => localFacilitator.settle(payload, requirements),
    getSupported: async () => localFacilitator.getSupported() as SupportedResponse,
  };

  // The server owns its receiver authorizer, so it signs claims and refunds itself.
  const authorizerSigner: AuthorizerSigner = {
    address: receiverAuthorizer.address,
    signTypedData: (params) => receiverAuthorizer.signTypedData(params as TypedDataDefinition),
  };
  const serverScheme = new ChannelServerScheme(options.payTo, {
    receiverAuthorizerSigner: authorizerSigner,
    ...(options.storage && { storage: options.storage }),
  });
  const resourceServer = new x402ResourceServer(facilitator).register(network, serverScheme);
  await resourceServer.initialize();
  const [requirements] = await resourceServer.buildPaymentRequirements({
    scheme: "batch-settlement",
    payTo: options.payTo,
    price: {
      amount: String(options.price ?? routePrices.check),
      asset: chains.base.usdc.address,
      extra: { ...nativeUsdcDomain },
    },
    network,
    maxTimeoutSeconds: 60,
  });
  if (!requirements) {
    throw new ConfigurationError("the resource server built no batch-settlement requirements");
  }
  const offered: PaymentRequirements[] = [requirements];
  const resource = { url: "http://presend.local/check", description: "presend check" };

  const deposit = options.deposit;
  const clientScheme = new ChannelClientScheme(toClientEvmSigner(payer, client), {
    voucherSigner: toClientEvmSigner(sessionKey),
    ...(deposit !== undefined && { depositStrategy: () => deposit }),
  });
  const httpClient = new x402HTTPClient(new x402Client().register(network, clientScheme));
  const channelId = computeChannelId(clientScheme.buildChannelConfig(requirements), network);

  const createPayload = async () =>
    httpClient.createPaymentPayload(
      await resourceServer.createPaymentRequiredResponse(offered, resource),
    );

  async function refuse(payload: PaymentPayload, reason: string): Promise<ChannelPayment> {
    // A 402 that names the reason, as the HTTP server answers it; the client may resync from it.
    const corrective = await resourceServer.createPaymentRequiredResponse(
      offered,
      resource,
      reason,
      undefined,
      undefined,
      payload,
    );
    const header = encodePaymentRequiredHeader(corrective);
    await httpClient.processPaymentResult(
      payload,
      (name) => (name.toUpperCase() === "PAYMENT-REQUIRED" ? header : null),
      402,
    );
    return { paid: false, payload, reason };
  }

  async function submit(payload: PaymentPayload): Promise<ChannelPayment> {
    const matched = resourceServer.findMatchingRequirements(offered, payload);
    if (!matched) return refuse(payload, "no_matching_requirements");
    const verified = await resourceServer.verifyPayment(payload, matched);
    if (!verified.isValid) return refuse(payload, verified.invalidReason ?? "invalid_payment");
    // The paid work runs here, between verification and settlement.
    let settlement: SettleResponse;
    try {
      settlement = await resourceServer.settlePayment(payload, matched);
    } catch (error) {
      // The server scheme refused to commit the charge (its hooks abort with a reason).
      if (error instanceof SettleError)
        return refuse(payload, error.errorReason ?? "settlement_failed");
      throw error;
    }
    const header = encodePaymentResponseHeader(settlement);
    await httpClient.processPaymentResult(
      payload,
      (name) => (name.toUpperCase() === "PAYMENT-RESPONSE" ? header : null),
      settlement.success ? 200 : 402,
    );
    return settlement.success
      ? { paid: true, payload, settlement }
      : { paid: false, payload, reason: settlement.errorReason ?? "settlement_failed" };
  }

  return {
    requirements,
    channelId,
    pay: async () => submit(await createPayload()),
    createPayload,
    submit,
    manager: serverScheme.createChannelManager(facilitator, network, chains.base.usdc.address),
    facilitator,
    serverScheme,
  };
}
