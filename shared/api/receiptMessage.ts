/**
 * The EIP-191 message a payer signs to fetch a stored receipt: proves they own the paying key.
 * `id` is the settlement transaction (GET /receipts/{tx}) or the authorization nonce
 * (GET /receipts/{payer}/{nonce}).
 * @example await account.signMessage({ message: receiptMessage(tx) });
 */
export function receiptMessage(id: string): string {
  return `presend receipt ${id.toLowerCase()}`;
}
