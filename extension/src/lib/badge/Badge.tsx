import { visibleEnds } from "@presend/shared/address/visibleEnds";
import { levelRank } from "@presend/shared/verdict/levelRank";
import { ageInWords } from "../ui/ageInWords";
import { decisionWords } from "../ui/words";
import type { BadgeProps } from "./BadgeCard";

// What the chip says once a paid check runs or ended (the decision, in the verdict's colour;
// a free danger found locally, a lookalike, is never hidden by a milder verdict); the local
// label before that.
function chipState(props: BadgeProps): { level: string; label: string } {
  const { outcome, assessment } = props;
  if (outcome?.type === "report") {
    const paid = outcome.entry.report.verdict.level;
    const level =
      assessment.level !== "neutral" && levelRank(assessment.level) > levelRank(paid)
        ? assessment.level
        : paid;
    // A verdict shown again after a reload or from another tab says how old it is.
    const age = ageInWords(outcome.entry.checkedAt, Date.now()).replace(" ago", "");
    return {
      level,
      label: age === "just now" ? decisionWords[level] : `${decisionWords[level]} · ${age}`,
    };
  }
  // Until "Fetch my report" proves the payment never settled: then it is a check not done.
  const provenNotCharged = props.recovery.result?.type === "not_charged";
  if (outcome && "recoveryId" in outcome && outcome.recoveryId && !provenNotCharged) {
    return { level: "warn", label: "Report not received" };
  }
  if (outcome) return { level: "neutral", label: "Check not done" };
  if (props.busy) return { level: assessment.level, label: "Checking…" };
  // A free fact from the wallet's node may add a warning, never take one away.
  if (props.contractOn && (assessment.level === "neutral" || assessment.level === "caution")) {
    return { level: "warn", label: "Contract · not checked" };
  }
  return { level: assessment.level, label: assessment.label };
}

/**
 * The free, local verdict next to a field: a chip with the status in colour and words. Open, it
 * holds the card (BadgeCard), which the verdict UI chunk renders into the card slot.
 */
export function Badge(props: BadgeProps) {
  const { assessment, expanded } = props;
  const chip = chipState(props);
  const short = visibleEnds(assessment.input);
  // A paid check's news (checking, then its decision) is told to screen readers wherever the
  // focus is, card open or not: the region stays mounted with the badge, so a change is read.
  const news = props.busy || props.outcome ? `presend, ${short}: ${chip.label}` : "";
  return (
    <div
      className="presend badge-root"
      data-status={assessment.status}
      data-level={assessment.level}
      data-expanded={expanded ? "true" : "false"}
      data-click-ready={props.clickReady ? "true" : "false"}
    >
      {!expanded && (
        <button
          type="button"
          className={`badge-chip level-${chip.level}`}
          data-action="expand"
          data-testid="chip"
          aria-expanded="false"
          aria-haspopup="dialog"
          aria-label={`presend: ${chip.label} for ${short}. Show details`}
          title={chip.label}
          onClick={props.onToggle}
        >
          <span className="dot" aria-hidden="true" />
          <span>{chip.label}</span>
        </button>
      )}
      {expanded && <div className="card-slot" />}
      <div className="visually-hidden" role="status" data-testid="announcement">
        {news}
      </div>
    </div>
  );
}
