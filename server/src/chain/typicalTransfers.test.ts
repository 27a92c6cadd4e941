import { chains } from "@presend/shared/chains/chains";
import { decodeFunctionData, erc20Abi, getAddress, parseEther, parseTransaction } from "viem";
import { describe, expect, it } from "vitest";
import { plainTransferGas, tokenTransferGas, typicalTransfers } from "./typicalTransfers";

const recipient = getAddress("0x1111111111111111111111111111111111111111");

describe("typicalTransfers", () => {
  it("is an unsigned EIP-1559 native transfer of 0.1 ETH to the address, at 21,000 gas", () => {
    const native = parseTransaction(typicalTransfers(recipient, chains.base).nativeTransfer);
    expect(native).toMatchObject({
      type: "eip1559",
      chainId: 8453,
      to: recipient.toLowerCase(),
      value: parseEther("0.1"),
      gas: plainTransferGas,
    });
    expect(native).not.toHaveProperty("r");
  });

  it("is a 1,000 USDC transfer() to the address on the chain's USDC, at 65,000 gas", () => {
    const token = parseTransaction(typicalTransfers(recipient, chains.optimism).tokenTransfer);
    expect(token).toMatchObject({ chainId: 10, gas: tokenTransferGas });
    expect(getAddress(token.to ?? "0x")).toBe(chains.optimism.usdc.address);
    const call = decodeFunctionData({ abi: erc20Abi, data: token.data ?? "0x" });
    expect([call.functionName, call.args]).toEqual(["transfer", [recipient, 1_000_000_000n]]);
  });
});
