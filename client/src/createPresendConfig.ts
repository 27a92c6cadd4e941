import type { ClientEvmSigner } from "@x402/evm";
import type { Address, Hex } from "viem";
import { boundedFetch } from "./boundedFetch";
import { checkSignableTypedData } from "./channels/checkSignableTypedData";
import type { ChannelPayer, ChannelPaymentOptions } from "./channels/createChannelPayer";
import { createChannelPayer } from "./channels/createChannelPayer";
import type { PinStore } from "./PinStore";
import type { ClientEvent } from "./PresendResult";
import type { SpendCap } from "./SpendCap";

/** The paying key: a viem account, or a wallet reached some other way (the extension's tab). */
export type PresendSigner = {
  address: Address;
  signTypedData(typedData: {
    domain: Record<string, unknown>;
    types: Record<string, unknown>;
    primaryType: string;
    message: Record<string, unknown>;
  }): Promise<Hex>;
  /** EIP-191 personal_sign; proves the payer to /receipts when a report must be fetched again. */
  signMessage(args: { message: string }): Promise<Hex>;
  /**
   * Read-only chain access on Base (viem's readContract), optional: with it, the batch-settlement
   * scheme resyncs a channel the server finds out of step (a lost answer) from the escrow.
   */
  readContract?: ClientEvmSigner["readContract"];
};

export type PresendClientOptions = {
  /** The API, e.g. https://api.presend.example (a path is kept; keys are pinned per origin). */
  url: string;
  /** Who pays; a function is asked only once a payment is about to be signed. */
  signer?: PresendSigner | (() => Promise<PresendSigner>);
  /** Most one check may cost, in USDC base units; the attested price is checked regardless. */
  maxPrice?: bigint;
  pinStore: PinStore;
  spendCap?: SpendCap;
  fetch?: typeof fetch;
  /**
   * How long one request may take to its answer's last byte (default 120 s): past it the
   * request failed (a paid one's charge unknown, its report fetched through /receipts).
   */
  timeoutMs?: number;
  onEvent?: (event: ClientEvent) => void;
  /** Clock, injectable for tests. */
  now?: () => Date;
  /**
   * Sign in (Sign-In-With-X, one EIP-191 signature) before paying: a wallet that paid for the
   * same check in the server's re-read window gets that report again instead of paying again.
   * Off by default: with a wallet in a browser each sign-in is a prompt.
   */
  signIn?: boolean;
  /**
   * Pay through an x402 batch-settlement channel when the server offers one that matches the
   * attested terms: one deposit by the signer, then vouchers by this session key (off without).
   */
  channel?: ChannelPaymentOptions;
};

/**
 * What every action of the client reads: the options resolved once, and the state the actions
 * share (the signer asked for once, the one channel payer). Each action takes it first, as
 * wagmi's actions take their config.
 */
export type PresendConfig = {
  /** The API's URL without a trailing slash. */
  base: string;
  /** Where keys are pinned. */
  origin: string;
  pinStore: PinStore;
  spendCap: SpendCap | undefined;
  maxPrice: bigint | undefined;
  signIn: boolean;
  channel: ChannelPaymentOptions | undefined;
  emit: (event: ClientEvent) => void;
  now: () => Date;
  /** A request to `base` + path that never follows a redirect. */
  send(path: string, init?: RequestInit): Promise<Response>;
  /** The same transport for a full URL (the channel's refund calls the package's own requests). */
  fetchNoRedirect: typeof fetch;
  /** The paying key, asked for on first use; null when none is configured. */
  signer(): Promise<PresendSigner> | null;
  /**
   * This client's channel payer (created on first use with the signer); null without a channel
   * or a signer. A payer whose signer could not be had is dropped, so the next call asks again.
   */
  channelPayer(): Promise<ChannelPayer> | null;
};

/**
 * Resolves the client's options into the config its actions share.
 * @example const config = createPresendConfig({ url, signer, pinStore: createMemoryPinStore() });
 */
export function createPresendConfig(options: PresendClientOptions): PresendConfig {
  const base = options.url.replace(/\/+$/, "");
  // Every answer ends: a server that never finishes cannot hold a paid call forever.
  const fetchFn = boundedFetch(
    options.fetch ?? ((input, init) => fetch(input, init)),
    options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
  );
  // Never follow a redirect: a payment header must reach the server that was verified, only.
  const fetchNoRedirect: typeof fetch = (input, init) =>
    fetchFn(input, { ...init, redirect: "manual" });
  const emit = options.onEvent ?? (() => {});
  let signerPromise: Promise<PresendSigner> | null = null;
  const signer = (): Promise<PresendSigner> | null => {
    if (options.signer === undefined) return null;
    const given = options.signer;
    if (signerPromise === null) {
      const asked = (typeof given === "function" ? given() : Promise.resolve(given)).then(
        guardSigner,
      );
      // A wallet that failed once (no wallet yet, a declined connect) is asked again next time.
      signerPromise = asked.catch((error: unknown) => {
        signerPromise = null;
        throw error;
      });
    }
    return signerPromise;
  };
  let payerPromise: Promise<ChannelPayer> | null = null;
  const channelPayer = (): Promise<ChannelPayer> | null => {
    const channel = options.channel;
    // Without a channel the wallet is not asked at all (nor left with a refusal nobody awaits).
    if (channel === undefined) return null;
    const paying = signer();
    if (paying === null) return null;
    if (payerPromise === null) {
      payerPromise = paying
        .then((payer) =>
          createChannelPayer({
            base,
            payer,
            channel,
            ...(options.spendCap && { spendCap: options.spendCap }),
            emit,
          }),
        )
        .catch((error: unknown) => {
          payerPromise = null;
          throw error;
        });
    }
    return payerPromise;
  };
  return {
    base,
    origin: new URL(base).origin,
    pinStore: options.pinStore,
    spendCap: options.spendCap,
    maxPrice: options.maxPrice,
    signIn: options.signIn === true,
    channel: options.channel,
    emit,
    now: options.now ?? (() => new Date()),
    send: (path, init = {}) => fetchNoRedirect(`${base}${path}`, init),
    fetchNoRedirect,
    signer,
    channelPayer,
  };
}

/**
 * The signer the payment schemes get: its typed-data signatures limited to what presend pays with
 * (an exact authorization, a channel deposit; see checkSignableTypedData), refused before the key
 * or the wallet is asked. Only the members presend uses are passed on: a viem account's
 * transaction signing would let a scheme sign an approval for gas sponsoring.
 */
function guardSigner(signer: PresendSigner): PresendSigner {
  return {
    address: signer.address,
    signTypedData: (typedData) => {
      const refusal = checkSignableTypedData(typedData, {
        allowed: ["TransferWithAuthorization", "ReceiveWithAuthorization"],
        from: signer.address,
      });
      if (refusal !== null) return Promise.reject(new Error(refusal));
      return signer.signTypedData(typedData);
    },
    signMessage: (args) => signer.signMessage(args),
    ...(signer.readContract && { readContract: signer.readContract }),
  };
}
