import { InputError } from "@presend/shared/errors/InputError";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { capStartsAgainAt } from "../../lib/payments/capStartsAgainAt";
import { utcDay } from "../../lib/payments/utcDay";
import { useStoredValue } from "../../lib/queries/useStoredValue";
import { noSpending, pinnedKeys, settings, spendLedger } from "../../lib/storage/items";
import { pinScope } from "../../lib/storage/pinScope";
import { channelDepositDefault } from "../../lib/storage/schemas";
import { parseDollarAmount } from "../../lib/ui/parseDollarAmount";
import { testConnection } from "../../lib/ui/testConnection";

// What parseDollarAmount takes, said where it refuses: "1,000" is refused as ambiguous, so the
// person is told to leave out the thousands separator.
const amountShape = "like 5, 7.50 or 7,50, with no thousands separator";

/**
 * Today's spend against the daily cap, in words and as a bar, and when the cap starts again: the
 * cap counts UTC days, whose midnight is the person's afternoon or evening in some places.
 */
function SpentToday({
  spentUnits,
  capUnits,
  day,
}: {
  spentUnits: bigint;
  capUnits: bigint | null;
  day: string;
}) {
  const left = capUnits === null ? null : capUnits > spentUnits ? capUnits - spentUnits : 0n;
  return (
    <div data-testid="spent-today">
      <div>
        <strong>{formatUsdc(spentUnits)}</strong>
        {capUnits === null
          ? " spent today (UTC)."
          : ` of ${formatUsdc(capUnits)} spent today (UTC).`}
        {left !== null && <span className="muted"> {formatUsdc(left)} left.</span>}
      </div>
      <div className="muted" data-testid="cap-starts-again">
        {`The cap starts again at ${capStartsAgainAt(day)}.`}
      </div>
      {capUnits !== null && (
        <meter
          aria-label="Spent today against the daily cap"
          min={0}
          max={Math.max(Number(capUnits), 1)}
          high={Math.max(Number(capUnits), 1) * 0.8}
          value={Number(spentUnits)}
          style={{ width: "100%", height: 12 }}
        />
      )}
    </div>
  );
}

/** The settings a typed value can be wrong in, each with an input of that name. */
type TypedSetting = "apiUrl" | "cap" | "channelDeposit";

/** What is wrong with a typed value, told beside the input it is about. */
type FieldProblem = { field: TypedSetting; message: string };

// Read before saving: a value that cannot be saved is named at its own input, never as the
// browser's words ("Failed to construct 'URL'") somewhere under the form.
function findProblem(values: Record<TypedSetting, string>): FieldProblem | null {
  if (!URL.canParse(values.apiUrl)) {
    return { field: "apiUrl", message: "The API server URL must be a full address (https://…)." };
  }
  if (parseDollarAmount(values.cap) === null) {
    return { field: "cap", message: `The cap must be a dollar amount, ${amountShape}.` };
  }
  if (parseDollarAmount(values.channelDeposit) === null) {
    return {
      field: "channelDeposit",
      message: `The channel deposit must be a dollar amount, ${amountShape}.`,
    };
  }
  return null;
}

const labels: Record<TypedSetting, string> = {
  apiUrl: "the API server URL",
  cap: "the daily spending cap",
  channelDeposit: "the channel deposit",
};

/** The ids of the texts that describe an input (its help, its error), for aria-describedby. */
function describedBy(...ids: Array<string | false>): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

/** API URL, daily cap, pinned attestation key and the sites where the badge is off. */
export function Options() {
  const current = useStoredValue(settings);
  const pins = useStoredValue(pinnedKeys);
  const ledger = useStoredValue(spendLedger);
  const [apiUrl, setApiUrl] = useState("");
  const [cap, setCap] = useState("");
  const [deposit, setDeposit] = useState("");
  const [sites, setSites] = useState("");
  const [checkAsPayer, setCheckAsPayer] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<FieldProblem | null>(null);

  useEffect(() => {
    if (!current.data) return;
    setApiUrl(current.data.apiUrl);
    setCap((current.data.dailyCapUnits / 1_000_000).toFixed(2));
    setDeposit(
      ((current.data.channelDepositUnits ?? channelDepositDefault) / 1_000_000).toFixed(2),
    );
    setSites(current.data.disabledSites.join("\n"));
    setCheckAsPayer(current.data.checkAsPayer ?? true);
  }, [current.data]);

  const save = useMutation({
    mutationFn: async () => {
      // Read as findProblem read them: submit saves only values it found no problem in.
      const capUnits = parseDollarAmount(cap);
      const depositUnits = parseDollarAmount(deposit);
      if (capUnits === null || depositUnits === null) {
        throw new InputError("The cap and the channel deposit must be dollar amounts.");
      }
      await settings.setValue({
        apiUrl: new URL(apiUrl).toString().replace(/\/$/, ""),
        dailyCapUnits: capUnits,
        disabledSites: sites
          .split(/\s+/)
          .map((s) => s.trim())
          .filter(Boolean),
        checkAsPayer,
        channelDepositUnits: depositUnits,
      });
    },
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
    onSuccess: () => setError(null),
  });
  // Tests the address in the field (saved or not): the person checks before saving.
  const connection = useMutation({ mutationFn: () => testConnection(apiUrl, fetch) });
  const resetKey = useMutation({
    mutationFn: (scope: string) => pinnedKeys.update(({ [scope]: _removed, ...rest }) => rest),
  });
  // Resetting an unreadable ledger is the person's decision, never an automatic $0.
  const resetLedger = useMutation({
    mutationFn: () => spendLedger.setValue(noSpending),
  });
  const currentScope = current.data ? pinScope(current.data.apiUrl) : null;
  const today = utcDay(new Date());
  const pinList = Object.values(pins.data ?? {}).sort(
    (a, b) => Number(b.apiUrl === currentScope) - Number(a.apiUrl === currentScope),
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = findProblem({ apiUrl, cap, channelDeposit: deposit });
    setProblem(found);
    if (found) {
      // "Saved." of an earlier save beside "Not saved" would say both of this one.
      save.reset();
      // The keyboard and a screen reader land on the value to fix; its error is its description.
      event.currentTarget.querySelector<HTMLInputElement>(`[name="${found.field}"]`)?.focus();
      return;
    }
    save.mutate();
  };
  const invalid = (field: TypedSetting) => problem?.field === field;
  // Where a field's error shows: under the input, linked to it.
  const fieldError = (field: TypedSetting) =>
    invalid(field) && (
      <div id={`${field}-error`} className="field-error level-danger" data-testid="field-error">
        {problem?.message}
      </div>
    );

  return (
    <form className="presend options" onSubmit={submit} noValidate>
      <h1 className="page-title">presend options</h1>
      <label className="row">
        API server URL
        <input
          name="apiUrl"
          aria-invalid={invalid("apiUrl") || undefined}
          aria-describedby={describedBy(
            invalid("apiUrl") && "apiUrl-error",
            connection.data !== undefined && "connection-result",
          )}
          value={apiUrl}
          onChange={(e) => setApiUrl(e.target.value)}
          style={{ flex: "1 1 16em" }}
        />
      </label>
      {fieldError("apiUrl")}
      <div className="row" data-testid="connection">
        <button
          type="button"
          data-action="test-connection"
          disabled={connection.isPending}
          onClick={() => connection.mutate()}
        >
          {connection.isPending ? "Testing…" : "Test connection"}
        </button>
        {connection.data && (
          <span
            id="connection-result"
            data-testid="connection-result"
            data-ok={connection.data.ok ? "true" : "false"}
            className={connection.data.ok ? undefined : "level-danger"}
            style={{ flex: "1 1 12em" }}
          >
            {connection.data.summary}
          </span>
        )}
      </div>
      <label className="row">
        Daily spending cap (USD)
        <input
          name="cap"
          inputMode="decimal"
          aria-invalid={invalid("cap") || undefined}
          aria-describedby={describedBy(invalid("cap") && "cap-error")}
          value={cap}
          onChange={(e) => setCap(e.target.value)}
        />
      </label>
      {fieldError("cap")}
      <label className="row">
        Channel deposit (USD)
        <input
          name="channelDeposit"
          inputMode="decimal"
          aria-invalid={invalid("channelDeposit") || undefined}
          aria-describedby={describedBy(
            invalid("channelDeposit") && "channelDeposit-error",
            "channelDeposit-help",
          )}
          value={deposit}
          onChange={(e) => setDeposit(e.target.value)}
        />
      </label>
      {fieldError("channelDeposit")}
      <div className="muted field-help" id="channelDeposit-help">
        Where the server offers a payment channel, your wallet signs this deposit once and the next
        checks pay from it without a prompt; it counts against the daily cap when sent, and what is
        not spent comes back when you close the channel in the toolbar popup. 0 asks your wallet for
        every check.
      </div>
      <label>
        Sites where the badge is off (one hostname per line)
        <textarea
          name="sites"
          rows={4}
          value={sites}
          onChange={(e) => setSites(e.target.value)}
          style={{ width: "100%" }}
        />
      </label>
      <label className="row checkbox-row">
        <input
          type="checkbox"
          name="checkAsPayer"
          checked={checkAsPayer}
          onChange={(e) => setCheckAsPayer(e.target.checked)}
        />
        <span style={{ flex: "1 1 0" }}>
          Check as a payment from my wallet: the paying account is sent with the check, so it reads
          your own payment history (catches a lookalike of someone you paid).
        </span>
      </label>
      <div className="row">
        <button type="submit" className="primary">
          Save
        </button>
        {save.isSuccess && <span data-testid="saved">Saved.</span>}
        {problem && (
          // Read out on Save: the focus went to the input, whose description is the same words.
          <span className="form-error level-danger" role="alert">
            Not saved: {labels[problem.field]} needs fixing.
          </span>
        )}
        {error && (
          <span className="form-error level-danger" role="alert">
            {error}
          </span>
        )}
      </div>
      <h2>Spent today</h2>
      {ledger.isError ? (
        <div className="alert level-danger" data-testid="ledger-unreadable">
          The record of today's spending is unreadable: presend refuses to pay until you reset it.{" "}
          <button type="button" onClick={() => resetLedger.mutate()}>
            Reset spending record
          </button>
        </div>
      ) : ledger.isPending ? (
        // Not read yet: "$0.00 spent" now would be a claim about money not yet known.
        <div className="muted" data-testid="spent-today-loading">
          Reading today's spending…
        </div>
      ) : (
        <SpentToday
          spentUnits={
            ledger.data && ledger.data.day === today ? BigInt(ledger.data.spentUnits) : 0n
          }
          day={today}
          capUnits={current.data ? BigInt(current.data.dailyCapUnits) : null}
        />
      )}
      <h2>Pinned attestation keys</h2>
      {pinList.length === 0 && (
        <div className="muted" data-testid="no-key">
          No key pinned yet: the first paid check pins the server's key.
        </div>
      )}
      {pinList.map((pin) => (
        <div key={pin.apiUrl} data-testid="pin" data-api={pin.apiUrl}>
          <div className="mono" data-testid="fingerprint">
            {pin.fingerprint}
          </div>
          <div className="muted">
            {pin.jwk.kid ?? "no kid"}, pinned {pin.pinnedAt} for {pin.apiUrl}
            {pin.apiUrl === currentScope ? " (the API in use)" : ""}. This server presenting another
            key is refused until you reset this.
          </div>
          <button type="button" onClick={() => resetKey.mutate(pin.apiUrl)}>
            Reset pinned key
          </button>
        </div>
      ))}
    </form>
  );
}
