import type { Readiness } from "../observability/registerOpsRoutes";
import { cachedProbe } from "./cachedProbe";

/**
 * How far this machine's clock may stray from the payment chain's before the process reports
 * itself unready. Payments tolerate more (an authorization is good for 60 s, its bounds get 30 s
 * of slack), so a clock this far off is caught before it refuses a correct payer; NTP keeps a
 * healthy clock within a second. The chain's latest block is up to a block time old.
 */
export const maxClockSkewSeconds = 15;

/** How long one comparison is trusted. */
const clockCheckMs = 10_000;

export type ClockCheckOptions = {
  /** The payment chain's time: its latest block's timestamp (seconds). */
  chainNow: () => Promise<number>;
  /** This process's clock in milliseconds (tests move it). */
  clock?: () => number;
  /**
   * What to answer while the chain cannot be read (default: ready, for a process whose other
   * checks report the chain, or that serves without it).
   */
  whenUnreadable?: Readiness;
};

/**
 * Compares this process's clock with the payment chain's latest block: payment validity is
 * judged by the local clock (here and in the facilitator), so a clock that strays is reported as
 * unready, naming the skew, instead of quietly refusing correct payers. An unreadable chain says
 * nothing about the clock: it answers `whenUnreadable`.
 * @example const clockReadiness = clockCheck({ chainNow: () => payments.chain.now() });
 */
export function clockCheck(options: ClockCheckOptions): () => Promise<Readiness> {
  const clock = options.clock ?? Date.now;
  const reading = cachedProbe(
    async () => clock() / 1000 - (await options.chainNow()),
    clockCheckMs,
  );
  return async () => {
    let skew: number;
    try {
      skew = await reading();
    } catch {
      return options.whenUnreadable ?? { ready: true };
    }
    if (Math.abs(skew) <= maxClockSkewSeconds) return { ready: true };
    return {
      ready: false,
      reason: `this machine's clock is ${Math.round(Math.abs(skew))} s ${skew > 0 ? "ahead of" : "behind"} the payment chain's latest block (more than ${maxClockSkewSeconds} s): payments would be judged by a wrong clock. Fix the clock (NTP).`,
    };
  };
}
