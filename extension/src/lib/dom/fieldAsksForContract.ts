import type { EditableField } from "./editableFieldFrom";

// Words a form uses for a token or contract address (an ERC-20 to add, a spender to approve, an
// NFT collection), and for a recipient, which wins when both appear.
const contractWords = /\b(token|contract|erc ?\d+|nft|collection|spender|approve|asset)\b/i;
const recipientWords =
  /\b(recipient|receiver|send to|transfer to|destination|payee|beneficiary)\b/i;

// "eip747ContractAddress", "token_address", "erc-20" read as words.
const asWords = (text: string) =>
  text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .slice(0, 200);

/**
 * Whether a field asks for a token or contract address rather than a recipient, from what the
 * page says about it: its label (a <label for>, a wrapping one, or a label just before it),
 * aria-label and aria-labelledby, placeholder, name and id. Such a field gets no warning that
 * the address is a contract: that is what it asks for.
 * @example fieldAsksForContract(document.querySelector("#eip747ContractAddress")!) // true
 */
export function fieldAsksForContract(field: EditableField): boolean {
  const texts: string[] = [];
  const add = (text: string | null | undefined) => {
    if (text) texts.push(asWords(text));
  };
  for (const name of ["aria-label", "placeholder", "name", "id", "title"]) {
    add(field.getAttribute(name));
  }
  for (const id of (field.getAttribute("aria-labelledby") ?? "").split(/\s+/)) {
    if (id) add(field.ownerDocument.getElementById(id)?.textContent);
  }
  for (const label of (field as HTMLInputElement).labels ?? []) add(label.textContent);
  // A label without `for` right before the field, as many forms write them.
  const before = field.previousElementSibling;
  if (before && (before.localName === "label" || /^h\d$/.test(before.localName))) {
    add(before.textContent);
  }
  if (texts.some((text) => recipientWords.test(text))) return false;
  return texts.some((text) => contractWords.test(text));
}
