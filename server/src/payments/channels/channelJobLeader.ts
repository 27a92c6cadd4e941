import type { InFlightLock } from "../../paymentRecords/inFlightLock";

export type ChannelJobLeader = {
  /**
   * Whether this process runs the job now: it keeps a lease it holds (renewed on each run) or
   * takes one nobody holds. An unreachable lock store leads nobody: a claim put off is only
   * late (the vouchers stay in the shared store), two at once would spend gas twice.
   */
  lead(): Promise<boolean>;
  /** Gives the lease up (at stop), so another replica leads at its next run. */
  resign(): Promise<void>;
};

/**
 * One leader per channel job (claim, refund) among the replicas sharing a channel store, through
 * the fleet's lease store: without it every replica would claim the same vouchers and refund the
 * same channels on its own timer (a second claim of the same vouchers is a transaction that
 * moves nothing; a second refund reverts). The lease lasts two runs and a half, so the leader
 * keeps it by running, and a leader that dies hands the job over within that time. With one
 * process (the in-memory lock) it always leads.
 * @example const leader = channelJobLeader(lock, "claim", 60_000); if (await leader.lead()) claim();
 */
export function channelJobLeader(
  lock: InFlightLock,
  job: string,
  intervalMs: number,
): ChannelJobLeader {
  const key = `channel-job:${job}`;
  const ttlMs = Math.ceil(intervalMs * 2.5);
  let held = false;
  return {
    async lead() {
      const renewed = held && (await lock.renew(key, ttlMs).catch(() => false));
      held = renewed || (await lock.tryAcquire(key, ttlMs).catch(() => false));
      return held;
    },
    async resign() {
      if (!held) return;
      held = false;
      await lock.release(key).catch(() => {});
    },
  };
}
