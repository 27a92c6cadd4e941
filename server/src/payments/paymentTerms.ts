/**
 * How long a payment authorization may stay valid (x402's maxTimeoutSeconds): offered in every
 * 402, and the bound the intake holds a header's validBefore to.
 */
export const maxTimeoutSeconds = 60;
