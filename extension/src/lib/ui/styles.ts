import { cardStyles } from "./cardStyles";
import { chipStyles } from "./chipStyles";

// One stylesheet for the extension pages, made of the badge's (the chip's, then the card's), so
// a verdict looks the same everywhere.
export const styles = `${chipStyles}${cardStyles}
/* 100% of the body, not 100vw: a vertical scrollbar takes its width out of the body, never out
   of 100vw, and the popup would scroll sideways by it. */
.popup { width: min(400px, 100%); padding: var(--s3); }
.history li { display: block; }
/* A copyable address keeps a readable measure (two lines of 21): where the button leaves less
   beside it, the button wraps under it instead of squeezing it into a column of a few. */
.copyable .mono { flex: 1 1 21ch; overflow-wrap: anywhere; }
.result-region:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
/* In the side panel the card is the page: it fills the panel edge to edge, with no margin,
   frame or shadow, which a panel a person narrowed or zoomed (180 CSS pixels at 200%) needs. */
.side-panel .card { width: auto; max-height: 100vh; border: none; border-radius: 0;
  box-shadow: none; }
.presend.welcome { max-width: 760px; margin: 0 auto; padding: var(--s3); line-height: 1.5; }
.welcome img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 8px; }
/* Each page's one h1 keeps the look its title had (the popup's is the brand line); the sections
   under it are h2s drawn at the size of the card's section titles. */
.page-title { font-size: 16px; margin: var(--s4) 0 var(--s2); }
.popup .page-title { font-size: inherit; margin: 0; }
.popup h2, .options h2 { font-size: 14px; }
/* A checkbox sits at its label's first line, however many lines the label wraps to, at its own
   size (not a text input's padding and height). */
.checkbox-row { align-items: flex-start; flex-wrap: nowrap; }
.checkbox-row input { min-height: 0; padding: 0; margin: 3px 0 0; }
.field-help { margin: calc(-1 * var(--s1)) 0 var(--s2); }
.field-error, .form-error { padding: 2px var(--s2); border-radius: 6px; }
.field-error { width: fit-content; margin: calc(-1 * var(--s1)) 0 var(--s2); font-size: 12px; }
.history summary { cursor: pointer; padding: var(--s1) 0; }
.history details[open] summary { margin-bottom: var(--s2); }
`;
