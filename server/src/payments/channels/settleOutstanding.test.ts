import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { settleOutstanding } from "./settleOutstanding";

const payTo = `0x${"a".repeat(40)}` as Hex;
const asset = `0x${"b".repeat(40)}` as Hex;
const transaction = `0x${"c".repeat(64)}`;

/** An escrow whose receiver totals are `totals` (each read takes the next; the last one stays). */
function escrow(...totals: { claimed: bigint; settled: bigint }[]) {
  const reads: string[] = [];
  return {
    reads,
    async receiverTotals(receiver: Hex, token: Hex) {
      reads.push(`${receiver}:${token}`);
      return (totals.length > 1 ? totals.shift() : totals[0]) as {
        claimed: bigint;
        settled: bigint;
      };
    },
  };
}

describe("settleOutstanding", () => {
  it("settles when the escrow holds claimed money not yet settled to payTo, down to a single unit", async () => {
    const chain = escrow({ claimed: 500n, settled: 499n });
    let sent = 0;
    const result = await settleOutstanding({
      chain,
      payTo,
      asset,
      settle: async () => {
        sent += 1;
        return { transaction };
      },
    });
    expect(result).toEqual({ transaction });
    expect(sent).toBe(1);
    expect(chain.reads).toEqual([`${payTo}:${asset}`]);
  });

  it("sends nothing when everything claimed is settled", async () => {
    let sent = 0;
    const result = await settleOutstanding({
      chain: escrow({ claimed: 500n, settled: 500n }),
      payTo,
      asset,
      settle: async () => {
        sent += 1;
        return { transaction };
      },
    });
    expect(result).toBeNull();
    expect(sent).toBe(0);
  });

  it("takes a refused settle as done when the escrow shows it settled meanwhile", async () => {
    const result = await settleOutstanding({
      chain: escrow({ claimed: 500n, settled: 200n }, { claimed: 500n, settled: 500n }),
      payTo,
      asset,
      settle: async () => {
        throw new Error("Settle failed: invalid_batch_settlement_evm_nothing_to_settle");
      },
    });
    expect(result).toBeNull();
  });

  it("throws the settle's failure while claimed money is still unsettled", async () => {
    await expect(
      settleOutstanding({
        chain: escrow({ claimed: 500n, settled: 200n }),
        payTo,
        asset,
        settle: async () => {
          throw new Error("Settle failed: rpc down");
        },
      }),
    ).rejects.toThrow("rpc down");
  });

  it("throws when the escrow cannot be read (nothing is sent blind)", async () => {
    let sent = 0;
    await expect(
      settleOutstanding({
        chain: {
          receiverTotals: () => Promise.reject(new Error("endpoint down")),
        },
        payTo,
        asset,
        settle: async () => {
          sent += 1;
          return { transaction };
        },
      }),
    ).rejects.toThrow("endpoint down");
    expect(sent).toBe(0);
  });
});
