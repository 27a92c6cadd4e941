import { useState } from "react";

/**
 * A long value (an address) written out whole, wrapping where it must, with a copy control: what
 * a shortened form (0x9Cb2…960f) stands for is always one click from the clipboard.
 * @example <CopyableValue value={entry.address} label="address" />
 */
export function CopyableValue({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <div className="row copyable" data-testid="copyable">
      <span className="mono">{value}</span>
      <button type="button" data-action="copy-value" onClick={copy}>
        {copied ? "Copied" : `Copy ${label}`}
      </button>
    </div>
  );
}
