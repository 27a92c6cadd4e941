import type { OpenAPIHono } from "@hono/zod-openapi";
import type { PaidAuthorization } from "../payments/intake/authorizationOf";
import type {
  ChannelPaymentIntake,
  PaymentIntake,
  PaymentRejection,
} from "../payments/intake/paymentIntake";

/**
 * Hono environment shared by every route of the API. `payment`: the payment a paid request
 * carries, read once by paymentIntake (`paymentRejection`: why a header was set aside).
 * `authorization`: the EIP-3009
 * authorization of the paid request being served (set by paymentLedger, read by the handler
 * that records it before settlement). `paymentId`: the x402 payment-identifier of that request.
 */
export type AppEnv = {
  Variables: {
    payment?: PaymentIntake;
    paymentRejection?: PaymentRejection;
    authorization?: PaidAuthorization;
    /** The payer's payment-identifier and what it asked for (set with `authorization`). */
    paymentId?: { id: string; requestHash: string };
    /**
     * The engine run a voucher-paid request started beside its payment's verification (the
     * route's own run, read by its handler only once the payment was verified).
     */
    earlyRun?: { path: string; run: Promise<unknown> };
    /**
     * The channel payment (deposit or voucher) the request carries and its payment id, read once
     * by paymentIntake.
     */
    channelPayment?: ChannelPaymentIntake;
    /**
     * The detached signature of the report a channel payment's handler recorded (bound to the
     * record's nonce, known before settlement), started beside the record's write.
     */
    channelReportSignature?: Promise<string>;
    /**
     * The paid handler refused before the payment was taken (its record could not be written):
     * its error answer is final, since x402 settles nothing after a handler's error.
     */
    refusedBeforePayment?: true;
  };
};

/** The application type every `register*` function receives. */
export type App = OpenAPIHono<AppEnv>;
