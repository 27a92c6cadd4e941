import { Fragment } from "react";

// The positions (after 0x) where two addresses differ, case-insensitively: EIP-55 case is not a
// difference.
function differingPositions(checked: string, genuine: string): number[] {
  const a = checked.slice(2).toLowerCase();
  const b = genuine.slice(2).toLowerCase();
  const positions: number[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) positions.push(i);
  }
  return positions;
}

// One address, its differing characters in <mark>: bold and underlined besides the colour, so the
// difference reads without colour too.
function MarkedAddress({ address, differs }: { address: string; differs: Set<number> }) {
  const hex = address.slice(2);
  const parts: Array<{ start: number; text: string; marked: boolean }> = [];
  for (let i = 0; i < hex.length; i++) {
    const marked = differs.has(i);
    const last = parts[parts.length - 1];
    if (last && last.marked === marked) last.text += hex[i];
    else parts.push({ start: i, text: hex[i] ?? "", marked });
  }
  return (
    <span className="mono">
      0x
      {parts.map((part) => (
        <Fragment key={part.start}>
          {part.marked ? <mark className="differs">{part.text}</mark> : part.text}
        </Fragment>
      ))}
    </span>
  );
}

/**
 * An address-poisoning finding made visible: the address being checked above the genuine one
 * the person really paid, the characters that differ marked in both, and how many there are in
 * words (same start and end, a different middle).
 * @example <LookalikeComparison checked={report.address} genuine={lookalike.address} />
 */
export function LookalikeComparison({ checked, genuine }: { checked: string; genuine: string }) {
  const positions = differingPositions(checked, genuine);
  const differs = new Set(positions);
  const count = positions.length;
  return (
    <div className="lookalike" data-testid="lookalike-comparison">
      <div>
        <div className="muted">You are about to send to:</div>
        <div data-testid="lookalike-checked">
          <MarkedAddress address={checked} differs={differs} />
        </div>
      </div>
      <div>
        <div className="muted">The address you really paid before:</div>
        <div data-testid="lookalike-genuine">
          <MarkedAddress address={genuine} differs={differs} />
        </div>
      </div>
      <div data-testid="lookalike-differs">
        <strong>{`Same start and end, but differs in ${count} character${count === 1 ? "" : "s"}`}</strong>{" "}
        (marked in bold and underlined).
      </div>
    </div>
  );
}
