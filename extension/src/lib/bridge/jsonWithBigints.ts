// EIP-712 messages carry uint256 values as bigints, which JSON and extension messaging cannot
// carry; they travel as {"$bigint": "<decimal>"} and are revived on the other side.

/**
 * JSON text of `value`, bigints tagged.
 * @example stringifyWithBigints({ value: 10000n }) // '{"value":{"$bigint":"10000"}}'
 */
export function stringifyWithBigints(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    typeof v === "bigint" ? { $bigint: v.toString() } : v,
  );
}

/**
 * Parses text made by stringifyWithBigints, reviving bigints.
 * @example parseWithBigints('{"value":{"$bigint":"10000"}}') // { value: 10000n }
 */
export function parseWithBigints(text: string): unknown {
  return JSON.parse(text, (_key, v) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === "$bigint" && /^-?\d+$/.test(v.$bigint)) {
        return BigInt(v.$bigint);
      }
    }
    return v;
  });
}
