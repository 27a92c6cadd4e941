import { type Address, getAddress } from "viem";
import { findLookalike } from "../address/lookalike";
import type { ChainHistory, PaymentSummary } from "../api/history";

/** One Transfer event of a stablecoin, as read from the chain. */
export type TokenTransfer = {
  /** Unique per event (transaction hash and log index): the same event can come from two queries. */
  id: string;
  token: string;
  from: Address;
  to: Address;
  value: bigint;
  blockNumber: bigint;
  /** Unix seconds; null when the endpoint gave no block time with the log. */
  timestamp: number | null;
};

/** A native-coin transaction of the sender with a value. */
export type NativeSend = {
  to: Address;
  value: bigint;
  blockNumber: bigint;
  timestamp: number | null;
};

/**
 * The sender's transactions it took part in without signing them (a Safe's or an ERC-4337
 * account's), and whether the ETH it sent inside them, in internal calls, was read.
 */
export type InternalSendsRead =
  | { status: "read"; transactions: number }
  | { status: "unknown"; transactions: number; error: string };

export type NativeRead =
  | {
      status: "read";
      /** Its own transactions' values and, where `internal` was read, its internal sends. */
      sends: NativeSend[];
      transactionsRead: number;
      /** Absent when every transaction read was the sender's own. */
      internal?: InternalSendsRead;
    }
  | { status: "unknown"; error: string }
  | { status: "not_asked" };

export type HistoryRead =
  | {
      status: "read";
      tokens: string[];
      fromBlock: bigint;
      toBlock: bigint;
      /** Transfers from the sender, and to or from the checked address (duplicates allowed). */
      transfers: TokenTransfer[];
      native: NativeRead;
      /**
       * Why the transfers to the checked address were not read (more than a check reads), while
       * those from the sender and from it were: the sender's payments are whole, its own are not.
       */
      recipientError?: string;
    }
  | { status: "unknown"; tokens: string[]; error: string; native: NativeRead };

/**
 * Below this many base units a non-zero transfer is dust: 0.01 of a 6-decimal stablecoin, far
 * below any real payment and the usual amount of a "dust" poisoning transfer.
 */
export const dustBelow = 10_000n;

const maxSentTo = 10;

type Payments = { payments: number; lastBlock: bigint; lastTimestamp: number | null };

function paymentSummary(address: Address, entry: Payments): PaymentSummary {
  return {
    address,
    payments: entry.payments,
    lastPaidAt:
      entry.lastTimestamp === null ? null : new Date(entry.lastTimestamp * 1000).toISOString(),
    lastPaidBlock: entry.lastBlock.toString(),
  };
}

function addPayment(
  into: Map<string, Payments & { address: Address }>,
  to: Address,
  block: bigint,
  timestamp: number | null,
) {
  const key = to.toLowerCase();
  const entry = into.get(key) ?? {
    address: getAddress(to),
    payments: 0,
    lastBlock: -1n,
    lastTimestamp: null,
  };
  entry.payments++;
  if (block > entry.lastBlock) {
    entry.lastBlock = block;
    entry.lastTimestamp = timestamp;
  }
  into.set(key, entry);
}

/**
 * Turns the transfers read around a check into the history facts of the report: the sender's
 * payments (to the checked address, and to lookalikes of it) and the checked address's own
 * zero-value, dust and outgoing transfers.
 * @example summarizeHistory({ recipient, sender, read }).sender?.lookalikes[0]?.payments // 6
 */
export function summarizeHistory(input: {
  recipient: Address;
  sender: Address | null;
  read: HistoryRead;
}): ChainHistory {
  const { read } = input;
  const native: ChainHistory["native"] =
    read.native.status === "read"
      ? {
          status: "read",
          transactionsRead: read.native.transactionsRead,
          ...(read.native.internal && { internal: { ...read.native.internal } }),
        }
      : read.native.status === "unknown"
        ? { status: "unknown", error: read.native.error }
        : { status: "not_asked" };
  if (read.status === "unknown") {
    return {
      status: "unknown",
      error: read.error,
      tokens: read.tokens,
      fromBlock: null,
      toBlock: null,
      native,
      sender: null,
      recipient: null,
    };
  }
  const recipient = input.recipient.toLowerCase();
  const sender = input.sender?.toLowerCase() ?? null;
  const seen = new Set<string>();
  const transfers = read.transfers.filter((transfer) => {
    if (seen.has(transfer.id)) return false;
    seen.add(transfer.id);
    return true;
  });

  // The checked address's own transfers: the poisoning fingerprint and where it sweeps to.
  const own = transfers.filter(
    (transfer) =>
      transfer.from.toLowerCase() === recipient || transfer.to.toLowerCase() === recipient,
  );
  const otherOf = (transfer: TokenTransfer) =>
    transfer.from.toLowerCase() === recipient ? transfer.to : transfer.from;
  // Whom it really transacted with. A poisoning VICTIM's zero-value and dust transfers are with
  // lookalikes of these; a poisoning address's are with unrelated people, its victims.
  const realCounterparties = [
    ...new Set(
      own
        .filter((transfer) => transfer.value >= dustBelow)
        .map((transfer) => otherOf(transfer).toLowerCase() as Address),
    ),
  ];
  let zeroValueTransfers = 0;
  let dustTransfers = 0;
  const zeroOrDustCounterparties = new Set<string>();
  const sentTo = new Map<string, { address: Address; transfers: number }>();
  for (const transfer of own) {
    const from = transfer.from.toLowerCase();
    const to = transfer.to.toLowerCase();
    const other = otherOf(transfer);
    if (transfer.value >= dustBelow) {
      if (from === recipient && to !== recipient) {
        const entry = sentTo.get(to) ?? { address: getAddress(transfer.to), transfers: 0 };
        entry.transfers++;
        sentTo.set(to, entry);
      }
      continue;
    }
    if (transfer.value === 0n) zeroValueTransfers++;
    else dustTransfers++;
    const aimedAtThisAddress = findLookalike(other, realCounterparties) !== null;
    if (other.toLowerCase() !== recipient && !aimedAtThisAddress) {
      zeroOrDustCounterparties.add(other.toLowerCase());
    }
  }
  const recipientTransfers = own.length;

  return {
    status: "read",
    tokens: read.tokens,
    fromBlock: read.fromBlock.toString(),
    toBlock: read.toBlock.toString(),
    native,
    sender:
      sender === null
        ? null
        : senderHistory(input.sender as Address, recipient, transfers, read.native),
    ...(read.recipientError !== undefined && { recipientError: read.recipientError }),
    recipient:
      read.recipientError !== undefined
        ? null
        : {
            transfers: recipientTransfers,
            zeroValueTransfers,
            dustTransfers,
            zeroOrDustCounterparties: zeroOrDustCounterparties.size,
            sentTo: [...sentTo.values()]
              .sort((a, b) => b.transfers - a.transfers)
              .slice(0, maxSentTo),
          },
  };
}

function senderHistory(
  senderAddress: Address,
  recipient: string,
  transfers: readonly TokenTransfer[],
  native: NativeRead,
): NonNullable<ChainHistory["sender"]> {
  const sender = senderAddress.toLowerCase();
  // Only non-zero payments count: a zero-value transferFrom "from" the sender needs no signature.
  const paid = new Map<string, Payments & { address: Address }>();
  const zeroValueTo = new Map<string, number>();
  let zeroValueToRecipient = 0;
  let dustFromRecipient = 0;
  for (const transfer of transfers) {
    if (
      transfer.from.toLowerCase() === recipient &&
      transfer.to.toLowerCase() === sender &&
      transfer.value < dustBelow
    ) {
      dustFromRecipient++;
    }
    if (transfer.from.toLowerCase() !== sender) continue;
    if (transfer.value === 0n) {
      const to = transfer.to.toLowerCase();
      if (to === recipient) zeroValueToRecipient++;
      zeroValueTo.set(to, (zeroValueTo.get(to) ?? 0) + 1);
      continue;
    }
    addPayment(paid, transfer.to, transfer.blockNumber, transfer.timestamp);
  }
  if (native.status === "read") {
    for (const send of native.sends) {
      if (send.value > 0n) addPayment(paid, send.to, send.blockNumber, send.timestamp);
    }
  }
  const paidRecipient = paid.get(recipient);
  const lookalikes = [...paid.values()]
    .filter((entry) => findLookalike(recipient, [entry.address]) !== null)
    .sort((a, b) => b.payments - a.payments)
    .map((entry) => {
      // A lookalike planted too is the likelier imitation when both were paid.
      const planted = zeroValueTo.get(entry.address.toLowerCase()) ?? 0;
      return {
        ...paymentSummary(entry.address, entry),
        ...(planted > 0 && { zeroValueFromSender: planted }),
      };
    });
  return {
    address: getAddress(senderAddress),
    counterparties: paid.size,
    paidRecipient: paidRecipient ? paymentSummary(paidRecipient.address, paidRecipient) : null,
    lookalikes,
    zeroValueToRecipient,
    dustFromRecipient,
  };
}
