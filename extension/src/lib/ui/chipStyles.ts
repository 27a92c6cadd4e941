// The chip's stylesheet, in the badge's shadow root on every page that shows one: the design
// tokens (spacing from one scale, 4, 8, 12, 16 px; level colours keeping text at 7:1 or more on
// their background, every level also written out in words), buttons and focus, and the chip.
// Plain CSS text: the badge cannot load files into a page. Generic font families only: a page's
// @font-face can define any named family (its glyphs would then draw the badge's words), never a
// generic one.
// Light or dark follows the person's own setting (prefers-color-scheme), never the page's: the
// host's "all: initial" keeps a page's color-scheme and colours from reaching the badge, and every
// colour is a token here, so the dark block below is the only place the scheme changes. The
// extension pages take the same tokens on :root (their canvas), which a shadow root never matches.
export const chipStyles = `
:host { all: initial; }
:root, .presend { --s1: 4px; --s2: 8px; --s3: 12px; --s4: 16px;
  --ink: #111827; --muted: #4b5563; --line: #e5e7eb; --accent: #1d4ed8; --surface: #fff;
  --raised: #fff; --hover: #f3f4f6; --edge: #9ca3af; --frame: #d1d5db; --quiet: #f3f4f6;
  --primary: #1d4ed8; --primary-hover: #1e40af;
  color-scheme: light; font: 13px/1.45 system-ui, sans-serif;
  color: var(--ink); background: var(--surface); box-sizing: border-box; text-align: left; }
.presend *, .presend *::before, .presend *::after { box-sizing: border-box; }
.level-neutral { background: #f3f4f6; color: #1f2937; --strong: #6b7280; }
.level-ok { background: #dcfce7; color: #14532d; --strong: #15803d; }
.level-caution { background: #fef3c7; color: #713f12; --strong: #b45309; }
.level-warn { background: #ffedd5; color: #7c2d12; --strong: #c2410c; }
.level-danger { background: #fee2e2; color: #7f1d1d; --strong: #b91c1c; }
@media (prefers-color-scheme: dark) {
  :root, .presend { color-scheme: dark; --ink: #f3f4f6; --muted: #9ca3af; --line: #374151;
    --accent: #60a5fa; --surface: #111827; --raised: #1f2937; --hover: #374151; --edge: #6b7280;
    --frame: #4b5563; --quiet: #1f2937; --primary: #2563eb; --primary-hover: #1d4ed8; }
  .level-neutral { background: #1f2937; color: #e5e7eb; --strong: #9ca3af; }
  .level-ok { background: #052e16; color: #bbf7d0; --strong: #22c55e; }
  .level-caution { background: #422006; color: #fde68a; --strong: #f59e0b; }
  .level-warn { background: #431407; color: #fed7aa; --strong: #f97316; }
  .level-danger { background: #450a0a; color: #fecaca; --strong: #f87171; }
}
button { font: inherit; font-weight: 600; border: 1px solid var(--edge); border-radius: 6px;
  background: var(--raised); color: var(--ink); padding: var(--s1) var(--s3); cursor: pointer; min-height: 28px; }
button:not(.badge-chip):hover:not(:disabled) { background: var(--hover); }
button:focus-visible, select:focus-visible, input:focus-visible, textarea:focus-visible {
  outline: 2px solid var(--accent); outline-offset: 2px; }
.badge-root { background: transparent; }
/* Read by screen readers, not drawn: the badge's news of a paid check. */
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
/* The badge: a chip beside the field, expanding into a card. */
.badge-chip { display: inline-flex; align-items: center; gap: 6px; min-height: 22px; padding: 2px 10px 2px 8px;
  border-radius: 999px; border: 1px solid var(--strong); font-size: 12px; font-weight: 600;
  box-shadow: 0 1px 3px rgba(0,0,0,.2); white-space: nowrap; }
/* One size for every chip: the page can measure the badge's host (and hit-test it), so a chip
   sized by its words would tell the page which addresses the person checked or sent to. */
.badge-chip { width: 240px; overflow: hidden; }
.badge-chip > span:last-child { overflow: hidden; text-overflow: ellipsis; }
.badge-chip:hover:not(:disabled) { filter: brightness(.95); }
.badge-chip .dot { width: 8px; height: 8px; border-radius: 50%; background: var(--strong); flex: none; }
`;
