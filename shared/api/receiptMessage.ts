/**
 * The EIP-191 message a payer signs to fetch a stored receipt: proves they own the paying key.
 * @example await account.signMessage({ message: receiptMessage(tx) });
 */
export function receiptMessage(tx: string): string {
  return `presend receipt ${tx.toLowerCase()}`;
}
