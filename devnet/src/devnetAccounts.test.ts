import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { devnetAccounts } from "./devnetAccounts";
import { devnetPrivateKey } from "./devnetPrivateKey";

describe("devnetAccounts", () => {
  it("derives every account from its label, each with a distinct address", () => {
    const accounts = Object.values(devnetAccounts);
    for (const account of accounts) {
      expect(account.privateKey).toBe(devnetPrivateKey(account.label));
      expect(account.address).toBe(privateKeyToAccount(account.privateKey).address);
    }
    expect(new Set(accounts.map((account) => account.address)).size).toBe(accounts.length);
  });
});
