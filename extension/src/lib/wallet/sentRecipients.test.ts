import { encodeFunctionData, erc20Abi } from "viem";
import { describe, expect, it, vi } from "vitest";
import { observeSends, sentRecipientsOf } from "./sentRecipients";

const recipient = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const token = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("sentRecipientsOf", () => {
  it("takes `to` of a plain value transfer", () => {
    expect(
      sentRecipientsOf("eth_sendTransaction", [{ to: recipient.toLowerCase(), value: "0x1" }]),
    ).toEqual([recipient]);
    expect(sentRecipientsOf("eth_sendTransaction", [{ to: recipient, data: "0x" }])).toEqual([
      recipient,
    ]);
  });

  it("takes the recipient from ERC-20 transfer and transferFrom calldata, not the token", () => {
    const transfer = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [recipient, 5n],
    });
    const transferFrom = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transferFrom",
      args: [other, recipient, 5n],
    });
    expect(sentRecipientsOf("eth_sendTransaction", [{ to: token, data: transfer }])).toEqual([
      recipient,
    ]);
    expect(
      sentRecipientsOf("wallet_sendCalls", [
        {
          calls: [
            { to: token, data: transferFrom },
            { to: other, value: "0x1" },
          ],
        },
      ]),
    ).toEqual([recipient, other]);
  });

  it("names nobody for other contract calls and other methods", () => {
    expect(sentRecipientsOf("eth_sendTransaction", [{ to: token, data: "0xdeadbeef" }])).toEqual(
      [],
    );
    expect(sentRecipientsOf("eth_signTypedData_v4", [recipient, "{}"])).toEqual([]);
  });
});

describe("observeSends", () => {
  it("reports only sends the wallet accepted", async () => {
    const onSent = vi.fn();
    let decline = false;
    const provider = {
      request: async ({ method }: { method: string }) => {
        if (decline) throw Object.assign(new Error("User rejected"), { code: 4001 });
        return method === "eth_sendTransaction" ? "0xhash" : null;
      },
    };
    observeSends(provider, onSent, new WeakSet());
    const send = { method: "eth_sendTransaction", params: [{ to: recipient, value: "0x1" }] };
    await expect(provider.request(send)).resolves.toBe("0xhash");
    expect(onSent).toHaveBeenCalledWith([recipient]);
    decline = true;
    await expect(provider.request(send)).rejects.toThrow("User rejected");
    expect(onSent).toHaveBeenCalledTimes(1);
    decline = false;
    await provider.request({ method: "eth_chainId" });
    expect(onSent).toHaveBeenCalledTimes(1);
  });

  it("wraps a provider once, so each send is reported once", async () => {
    const onSent = vi.fn();
    const provider = { request: async (_args: { method: string; params?: unknown }) => "0xhash" };
    const wrapped = new WeakSet<object>();
    observeSends(provider, onSent, wrapped);
    observeSends(provider, onSent, wrapped);
    await provider.request({ method: "eth_sendTransaction", params: [{ to: recipient }] });
    expect(onSent).toHaveBeenCalledTimes(1);
  });

  it("leaves a frozen provider alone", async () => {
    const provider = Object.freeze({ request: async () => "0xhash" });
    expect(() => observeSends(provider, vi.fn(), new WeakSet())).not.toThrow();
  });
});
