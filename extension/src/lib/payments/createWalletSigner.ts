import type { PresendSigner } from "@presend/client";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import {
  type Address,
  type Hex,
  isAddressEqual,
  parseSignature,
  recoverTypedDataAddress,
  serializeSignature,
  size,
} from "viem";
import { createPageChainReader } from "../channel/createPageChainReader";
import { MessageError } from "../messaging/MessageError";
import { guardWalletTypedData } from "./guardWalletTypedData";

/** The page wallet as the background reaches it (through the content script and the bridge). */
export type RemoteWallet = {
  account(): Promise<Address>;
  signTypedData(typedData: {
    domain: Record<string, unknown>;
    types: Record<string, unknown>;
    primaryType: string;
    message: Record<string, unknown>;
  }): Promise<Hex>;
  /** A read-only eth_call on `chainId` through the page's wallet (no prompt; see PageWallet). */
  call(chainId: number, to: Address, data: Hex): Promise<Hex>;
};

type TypedData = Parameters<PresendSigner["signTypedData"]>[0];

export type WalletSignerOptions = {
  wallet: RemoteWallet;
  /** The account the wallet shared for this check: the only one that may sign. */
  payer: Address;
  /** The daily cap: null when `units` fit, else why not. */
  fits(units: bigint): Promise<string | null>;
  /** Told just before the wallet is asked (the progress shows the attested terms). */
  beforeAsking(typedData: TypedData): void;
  /** Told once the wallet signed, before the signature leaves (the pending recovery keeps it). */
  afterSigned(typedData: TypedData): Promise<void>;
  /** The clock an authorization's validity is read against. */
  now: () => Date;
  /** Told of every signature that failed, before it is thrown (the outcome reads its cause). */
  onFailure(error: unknown): void;
};

/**
 * The signature as USDC's contract takes it. Some wallets and hardware-wallet bridges give an
 * ECDSA signature's recovery byte as 0 or 1 (its y parity) rather than 27 or 28: off-chain
 * checks accept both, the token's on-chain check only the latter, so the payment would be
 * refused at settlement. Rewritten only when it is the payer's own signature of these terms
 * (a 65-byte smart-account signature may use that byte for its own meaning, and is left as is).
 */
async function normalizedRecovery(
  signature: Hex,
  typedData: TypedData,
  payer: Address,
): Promise<Hex> {
  if (size(signature) !== 65) return signature;
  const recoveryByte = Number.parseInt(signature.slice(-2), 16);
  if (recoveryByte !== 0 && recoveryByte !== 1) return signature;
  const signer = await recoverTypedDataAddress({
    ...(typedData as Parameters<typeof recoverTypedDataAddress>[0]),
    signature,
  }).catch(() => null);
  if (signer === null || !isAddressEqual(signer, payer)) return signature;
  return serializeSignature(parseSignature(signature));
}

/**
 * The presend client's signer over the page wallet, for one check: only the typed data presend
 * pays with reaches the wallet (guardWalletTypedData), a channel deposit over the daily cap is
 * refused before the wallet is asked, and a receipt signature is never asked for unprompted
 * (fetching a report again takes the person's click). Chain reads (a channel's resync) go through
 * the page's wallet too.
 * @example const signer = createWalletSigner({ wallet, payer, fits, now, beforeAsking, afterSigned, onFailure });
 */
export function createWalletSigner(options: WalletSignerOptions): PresendSigner {
  const { wallet, payer } = options;
  return {
    address: payer,
    readContract: createPageChainReader((chainId, to, data) => wallet.call(chainId, to, data)),
    signTypedData: async (typedData) => {
      try {
        guardWalletTypedData(typedData, payer);
        if (typedData.primaryType === "ReceiveWithAuthorization") {
          // The client reserves a deposit once it is signed: one over the cap stops here.
          const value = String(typedData.message.value);
          const overCap = await options.fits(BigInt(value));
          if (overCap !== null) {
            throw new PaymentError(
              `${overCap} A channel deposit of ${formatUsdc(value)} was asked; lower it in the settings.`,
              { code: "cap_reached" },
            );
          }
        }
        options.beforeAsking(typedData);
        const signature = await wallet.signTypedData(typedData).catch((error: unknown) => {
          // The wallet answered, but with no signature (the bridge could not read its answer).
          if (error instanceof MessageError && error.code === "invalid") {
            throw new PaymentError("The wallet's answer was not a signature. Nothing was sent.", {
              code: "invalid_wallet_signature",
              cause: error,
            });
          }
          throw error;
        });
        // An ECDSA signature is 65 bytes; a smart account's (ERC-1271, ERC-6492) is longer. A
        // shorter one cannot pay: it is not sent, and no pending recovery is kept for it.
        if (size(signature) < 65) {
          throw new PaymentError(
            "The wallet's answer was not a whole signature. Nothing was sent.",
            {
              code: "invalid_wallet_signature",
            },
          );
        }
        const payable = await normalizedRecovery(signature, typedData, payer);
        // An authorization is valid for about a minute from the price's offer: one signed after
        // that (a hardware wallet taking its time) cannot pay, and is not sent.
        const validBefore = Number(typedData.message.validBefore);
        if (Number.isFinite(validBefore) && options.now().getTime() / 1000 >= validBefore) {
          throw new PaymentError("The wallet signed after the payment's time ran out.", {
            code: "signature_expired",
          });
        }
        await options.afterSigned(typedData);
        return payable;
      } catch (error) {
        options.onFailure(error);
        throw error;
      }
    },
    signMessage: async () => {
      throw new PaymentError("The receipt signature is asked for on the person's click.", {
        code: "receipt_signature_unavailable",
      });
    },
  };
}
