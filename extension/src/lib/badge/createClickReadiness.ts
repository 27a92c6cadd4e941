import type { ClickDecision } from "./clickGate";
import type { BadgeLifecycle } from "./createBadgeController";

export type ClickReadinessOptions = {
  win: Pick<Window, "clearTimeout">;
  ctx: Pick<BadgeLifecycle, "setTimeout">;
  now: () => number;
  /** Whether a paid click would count now (the visibility gate). */
  decide: () => ClickDecision;
  /** Whether a badge is shown at all (nothing to follow otherwise). */
  active: () => boolean;
  /** What the badge shows of it is out of date: render again. */
  onChange: () => void;
};

/**
 * Keeps the badge's "a paid click would count now" (data-click-ready) true to the click gate:
 * `read()` is what a render shows, and `refresh()` asks for a render when the decision changed,
 * and again at the moment the gate says it will (a badge that stays put becomes ready).
 * @example const readiness = createClickReadiness({ win: window, ctx, now, decide: gate.decision, active, onChange: draw })
 */
export function createClickReadiness(options: ClickReadinessOptions) {
  const { win, ctx, now } = options;
  let shown = false;
  let timer = 0;

  const stop = () => {
    win.clearTimeout(timer);
    timer = 0;
  };

  const refresh = () => {
    stop();
    if (!options.active()) return;
    const decision = options.decide();
    if (decision.allowed !== shown) options.onChange();
    if (!decision.allowed && decision.readyAt !== null) {
      timer = ctx.setTimeout(refresh, Math.max(decision.readyAt - now(), 0) + 1);
    }
  };

  return {
    /** Whether a paid click would count now, remembered as what the badge shows. */
    read(): boolean {
      shown = options.decide().allowed;
      return shown;
    },
    refresh,
    /** No more re-checks (the badge was hidden). */
    stop,
  };
}
