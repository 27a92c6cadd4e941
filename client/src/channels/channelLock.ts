/**
 * Holds a channel's payments one at a time. The server takes one request per channel at a time
 * (a second one while the first runs is refused as `channel_busy`), and each voucher signs the
 * channel's total so far plus its own price, read from the channel's state: two payments signed
 * side by side would both count from the same total and both open the channel when it has none
 * (two deposits signed for one). Every payment and the close run inside `hold`, from reading the
 * channel's state to writing what the answer said.
 */
export type ChannelLock = {
  /** Runs `work` once every earlier holder has finished; rejects, without running it, only when the lock cannot be had. */
  hold<T>(work: () => Promise<T>): Promise<T>;
};

/**
 * A lock in memory: enough for one client whose channel state no other process shares (the MCP
 * server, the extension, a script). Processes that share a channel's state need one they share.
 * @example const channel = { voucherSigner, lock: createMemoryChannelLock() };
 */
export function createMemoryChannelLock(): ChannelLock {
  // The tail of the queue; it never rejects, so a failed payment does not stop the next one.
  let tail: Promise<unknown> = Promise.resolve();
  return {
    hold(work) {
      const run = tail.then(work);
      tail = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
  };
}
