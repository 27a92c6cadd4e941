import { cardStyles } from "./cardStyles";
import { chipStyles } from "./chipStyles";

// One stylesheet for the extension pages, made of the badge's (the chip's, then the card's), so
// a verdict looks the same everywhere.
export const styles = `${chipStyles}${cardStyles}
.popup { width: min(400px, 100vw); padding: var(--s3); }
.history li { display: block; }
.history summary { cursor: pointer; padding: var(--s1) 0; }
.history details[open] summary { margin-bottom: var(--s2); }
`;
