// The verdict's stylesheet: the card a chip opens (it comes with the verdict UI chunk, so a page
// where no address is entered never carries it) and the verdict as the extension pages show it.
// It builds on chipStyles (the tokens, buttons), which comes first wherever it is used.
export const cardStyles = `
.row { display: flex; gap: var(--s2); align-items: center; flex-wrap: wrap; margin: var(--s2) 0; }
.stack > * + * { margin-top: var(--s2); }
.brand { font-weight: 700; letter-spacing: .01em; }
/* Generic families only: a page's @font-face cannot take a generic name, but it can define any
   named one (ui-monospace is a plain name in Chromium on Linux and Windows), and fonts a page
   defines reach into the badge's shadow root: its glyphs would draw the card's address. */
.mono { font-family: monospace;
  font-size: 12px; word-break: break-all; }
/* Addresses, keys and hashes read left to right, each on its own: beside right-to-left words (a
   wallet's name, a page's text) the bidi algorithm would otherwise move an address's leading 0
   to the other side of them. */
.mono { direction: ltr; unicode-bidi: isolate; }
.lookalike { border: 1px solid var(--strong, var(--line)); border-radius: 6px; padding: var(--s2);
  background: var(--surface); color: var(--ink); }
.lookalike > * + * { margin-top: var(--s1); }
.lookalike .mono { font-size: 13px; }
mark.differs { background: #fde68a; color: #111827; font-weight: 800; text-decoration: underline;
  text-decoration-thickness: 2px; text-underline-offset: 2px; }
.pill { display: inline-block; border-radius: 999px; padding: 1px var(--s2); font-weight: 600;
  font-size: 12px; white-space: nowrap; }
.alert { border-radius: 6px; padding: var(--s2) var(--s3); margin: var(--s2) 0;
  border-left: 4px solid var(--strong, var(--line)); overflow-wrap: anywhere; }
.notice { border-radius: 6px; padding: var(--s2) var(--s3); margin: var(--s2) 0; background: var(--quiet); }
button.primary { background: var(--primary); border-color: var(--primary); color: #fff; }
button.primary:hover:not(:disabled) { background: var(--primary-hover); }
button:disabled { opacity: .55; cursor: not-allowed; }
select, input, textarea { font: inherit; color: var(--ink); background: var(--surface); border: 1px solid var(--edge);
  border-radius: 6px; padding: var(--s1) var(--s2); min-height: 28px; }
/* A control never pushes past a narrow column (a 200 CSS px popup or options page): its own
   intrinsic width (an input's 20 characters) gives way to the room there is. */
select, input, textarea { min-width: 0; max-width: 100%; }
.icon-button { border: none; background: none; font-size: 18px; line-height: 1; padding: 0 var(--s1);
  min-height: 0; color: var(--muted); }
.muted { color: var(--muted); font-size: 12px; }
button.link { border: none; background: none; padding: 0; min-height: 0; color: var(--muted);
  font-size: 12px; text-decoration: underline; text-underline-offset: 2px; }
.card-foot { justify-content: space-between; border-top: 1px solid var(--line); padding-top: var(--s2); }
.reasons { list-style: none; margin: var(--s2) 0; padding: 0; }
.reasons li { display: flex; gap: var(--s2); align-items: baseline; padding: var(--s1) 0; }
/* A finding's words may hold a name with no break (a token's): they wrap, not widen the card. */
.reasons li > span:last-child { min-width: 0; overflow-wrap: anywhere; }
.reasons li + li { border-top: 1px solid var(--line); }
.table-wrap { overflow-x: auto; margin: var(--s2) 0; }
/* A page in quirks mode (no doctype, as MetaMask's test dApp) gives tables in the badge's shadow
   root the quirk's colour instead of the card's (the page's text colour, or black on a dark card). */
table { border-collapse: collapse; font-size: 12px; width: 100%; color: inherit; line-height: inherit; }
th { font-weight: 600; color: var(--muted); }
td, th { border-bottom: 1px solid var(--line); padding: var(--s1) var(--s2) var(--s1) 0; text-align: left;
  vertical-align: top; }
tr.target td { font-weight: 600; }
tr.target td:first-child::after { content: " (target)"; font-weight: 400; color: var(--muted); }
.flag { display: inline-block; border-radius: 4px; padding: 0 var(--s1); margin: 0 var(--s1) 2px 0;
  font-size: 11px; font-weight: 600; }
td[data-testid="flags"] { min-width: 72px; }
/* The table's width follows its container (the card, the popup); a narrow one moves the flags
   from their column to a line under the row they mark. */
.verdict { container-type: inline-size; }
tr.flags-line { display: none; }
tr.flags-line td { padding-top: 0; }
@container (max-width: 400px) {
  .flags-cell { display: none; }
  tr.flags-line { display: table-row; }
  tr.flagged td { border-bottom: none; }
}
.again { margin: var(--s2) 0; }
.again summary { cursor: pointer; color: var(--muted); font-size: 12px; padding: var(--s1) 0; }
.again[open] summary { color: var(--ink); }
.recovery .row .muted { flex: 1 1 200px; }
/* What the wallet will show holds words with no break (the payee's address, the EIP-712 type's
   name): they wrap, not widen the card past a narrow or zoomed window. */
.payment { overflow-wrap: anywhere; }
.headline { font-size: 13px; font-weight: 600; }
/* The decision: the card's first block, in the verdict's one colour. */
.decision { border-radius: 8px; padding: var(--s2) var(--s3); margin: var(--s2) 0;
  border-left: 4px solid var(--strong); }
.decision > * + * { margin-top: var(--s1); }
.decision { overflow-wrap: anywhere; }
.decision .pill { border: 1px solid var(--strong); }
.decision-title { font-size: 17px; font-weight: 800; line-height: 1.25; }
button.primary.danger { background: #b91c1c; border-color: #b91c1c; }
button.primary.danger:hover:not(:disabled) { background: #991b1b; }
.tech { margin: var(--s2) 0; }
.tech > summary { cursor: pointer; color: var(--muted); font-size: 12px; padding: var(--s1) 0; }
.alert .pill { border: 1px solid var(--strong); }
.verdict-head { display: flex; gap: var(--s2); align-items: baseline; flex-wrap: wrap; }
h2, h3 { font-size: 14px; margin: var(--s4) 0 var(--s2); }
h2 { font-size: 16px; }
.card { display: flex; flex-direction: column; width: min(440px, calc(100vw - 16px));
  max-height: min(560px, calc(100vh - 16px), var(--presend-card-room, 100vh)); border: 1px solid var(--frame); border-radius: 10px;
  box-shadow: 0 8px 28px rgba(0,0,0,.22); background: var(--surface); overflow: hidden; }
.card-head { display: flex; align-items: center; gap: var(--s2); padding: var(--s2) var(--s3);
  border-bottom: 1px solid var(--line); flex: none; }
.card-head .icon-button:first-of-type { margin-left: auto; }
/* The short address is read at a glance, its two ends on one line: never split at the "…". */
.card-head .mono { word-break: normal; white-space: nowrap; }
/* A card too narrow for the brand beside it (a side panel of 180 CSS pixels, a panel at 200%
   zoom) leaves the brand out: the browser's panel header and the card's accessible name both
   say presend, and the address it speaks about matters more. */
.card { container: card / inline-size; }
@container card (max-width: 240px) { .card-head .brand { display: none; } }
.card-body { overflow-y: auto; overscroll-behavior: contain; padding: 0 var(--s3) var(--s3); flex: 1 1 auto;
  min-height: 0; }
/* A control Tab scrolls to stops short of the body's edges, its focus ring whole (the body clips). */
.card-body { scroll-padding-block: var(--s2); }
/* The card's own focus target (where the focus waits when the control that had it goes) and the
   disclosures ("Details", "Address", "Check again") show the same ring as every control. */
summary:focus-visible, .card:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
`;
