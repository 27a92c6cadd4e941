import { baseUsdc } from "@presend/client";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { authorizationTypes, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import { MessageError } from "../messaging/MessageError";
import { createWalletSigner, type RemoteWallet } from "./createWalletSigner";

const account = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);
const usdc = { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: baseUsdc };
const authorization = {
  from: account.address,
  value: 50_000n,
  validAfter: 0n,
  validBefore: 1_900_000_000n,
  nonce: `0x${"ab".repeat(32)}`,
};
const exact = {
  domain: usdc,
  types: authorizationTypes,
  primaryType: "TransferWithAuthorization",
  message: { ...authorization, to: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" },
};
const deposit = {
  domain: usdc,
  types: { ReceiveWithAuthorization: authorizationTypes.TransferWithAuthorization },
  primaryType: "ReceiveWithAuthorization",
  message: { ...authorization, value: 500_000n, to: ERC3009_DEPOSIT_COLLECTOR_ADDRESS },
};

function setup(
  fits: (units: bigint) => Promise<string | null> = async () => null,
  now = new Date("2026-01-01T00:00:00Z"),
) {
  const wallet: RemoteWallet = {
    account: async () => account.address,
    signTypedData: vi.fn(
      async (typedData) => account.signTypedData(typedData as never) as Promise<Hex>,
    ),
    call: vi.fn(async () => "0x" as Hex),
  };
  const seen: string[] = [];
  const failures: unknown[] = [];
  const signer = createWalletSigner({
    wallet,
    payer: account.address,
    fits,
    now: () => now,
    beforeAsking: (typedData) => seen.push(`asking ${typedData.primaryType}`),
    afterSigned: async (typedData) => {
      seen.push(`signed ${typedData.primaryType}`);
    },
    onFailure: (error) => failures.push(error),
  });
  return { wallet, signer, seen, failures };
}

describe("createWalletSigner", () => {
  it("asks the wallet for an exact payment, told before and after, as the payer", async () => {
    const { signer, wallet, seen, failures } = setup();
    expect(signer.address).toBe(account.address);
    const signature = await signer.signTypedData(exact);
    expect(signature).toBe(await account.signTypedData(exact as never));
    expect(wallet.signTypedData).toHaveBeenCalledOnce();
    expect(seen).toEqual(["asking TransferWithAuthorization", "signed TransferWithAuthorization"]);
    expect(failures).toEqual([]);
  });

  it("refuses a deposit over the daily cap before the wallet is asked, naming the amount", async () => {
    const fits = vi.fn(async () => "Today's cap has $0.10 left.");
    const { signer, wallet, seen, failures } = setup(fits);
    const refusal = signer.signTypedData(deposit);
    await expect(refusal).rejects.toBeInstanceOf(PaymentError);
    await expect(refusal).rejects.toMatchObject({ code: "cap_reached" });
    await expect(refusal).rejects.toThrow(/\$0\.50 was asked/);
    expect(fits).toHaveBeenCalledWith(500_000n);
    expect(wallet.signTypedData).not.toHaveBeenCalled();
    expect(seen).toEqual([]);
    expect(failures).toHaveLength(1);
  });

  it("signs a deposit that fits the cap", async () => {
    const { signer, wallet } = setup();
    await signer.signTypedData(deposit);
    expect(wallet.signTypedData).toHaveBeenCalledOnce();
  });

  it("never lets other typed data reach the wallet, and tells the failure", async () => {
    const { signer, wallet, failures } = setup();
    const permit = { ...exact, primaryType: "Permit", types: { Permit: [] } };
    await expect(signer.signTypedData(permit)).rejects.toBeInstanceOf(PaymentError);
    expect(wallet.signTypedData).not.toHaveBeenCalled();
    expect(failures).toHaveLength(1);
  });

  it("tells a declined signature and throws it on, the recovery untouched", async () => {
    const { signer, wallet, seen, failures } = setup();
    const declined = new Error("declined");
    vi.mocked(wallet.signTypedData).mockRejectedValueOnce(declined);
    await expect(signer.signTypedData(exact)).rejects.toBe(declined);
    expect(seen).toEqual(["asking TransferWithAuthorization"]);
    expect(failures).toEqual([declined]);
  });

  it("refuses a wallet's answer that is no whole signature: not sent, no pending recovery kept", async () => {
    for (const answer of [
      () => Promise.resolve("0x1234" as Hex),
      () => Promise.reject(new MessageError({ code: "invalid", message: "Malformed answer." })),
    ]) {
      const { signer, wallet, seen, failures } = setup();
      vi.mocked(wallet.signTypedData).mockImplementationOnce(answer);
      const refusal = signer.signTypedData(exact);
      await expect(refusal).rejects.toBeInstanceOf(PaymentError);
      await expect(refusal).rejects.toMatchObject({ code: "invalid_wallet_signature" });
      expect(seen).toEqual(["asking TransferWithAuthorization"]);
      expect(failures).toHaveLength(1);
    }
  });

  it("does not send a signature given after the authorization's time ran out (a slow hardware wallet)", async () => {
    const { signer, seen, failures } = setup(undefined, new Date(1_900_000_000 * 1000));
    const late = signer.signTypedData(exact);
    await expect(late).rejects.toMatchObject({ code: "signature_expired" });
    expect(seen).toEqual(["asking TransferWithAuthorization"]);
    expect(failures).toHaveLength(1);
  });

  it("passes on a smart account's signature, longer than an ECDSA one (ERC-6492)", async () => {
    const { signer, wallet } = setup();
    const long = `0x${"ab".repeat(200)}` as Hex;
    vi.mocked(wallet.signTypedData).mockResolvedValueOnce(long);
    expect(await signer.signTypedData(exact)).toBe(long);
  });

  it("gives the payer's signature with its recovery byte as 0 or 1 (y parity) as 27 or 28, which USDC's contract takes", async () => {
    const { signer, wallet } = setup();
    const proper = (await account.signTypedData(exact as never)) as Hex;
    const parity = Number.parseInt(proper.slice(-2), 16) - 27;
    const asParity = `${proper.slice(0, -2)}0${parity}` as Hex;
    vi.mocked(wallet.signTypedData).mockResolvedValueOnce(asParity);
    expect(await signer.signTypedData(exact)).toBe(proper);
  });

  it("leaves a 65-byte signature ending in 0 or 1 that is not the payer's as it is (a smart account's own encoding)", async () => {
    const { signer, wallet } = setup();
    const contractSignature =
      `0x${"00".repeat(12)}${account.address.slice(2).toLowerCase()}${"00".repeat(32)}00` as Hex;
    vi.mocked(wallet.signTypedData).mockResolvedValueOnce(contractSignature);
    expect(await signer.signTypedData(exact)).toBe(contractSignature);
  });

  it("never asks for a receipt signature on its own: that takes the person's click", async () => {
    const { signer } = setup();
    await expect(signer.signMessage({ message: "presend receipt 0x01" })).rejects.toMatchObject({
      code: "receipt_signature_unavailable",
    });
  });
});
