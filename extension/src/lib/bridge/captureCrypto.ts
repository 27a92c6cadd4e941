import { randomHex } from "../dom/randomHex";

/**
 * The Web Crypto functions a MAIN-world script needs, bound at once: called before any page script
 * runs, a page that later replaces `crypto.subtle` or `getRandomValues` cannot see the key or pick
 * the ids.
 * @example const { subtle, randomId } = captureCrypto();
 */
export function captureCrypto(source: Crypto = crypto) {
  const webCrypto = source.subtle;
  const subtle = {
    importKey: webCrypto.importKey.bind(webCrypto),
    sign: webCrypto.sign.bind(webCrypto),
    verify: webCrypto.verify.bind(webCrypto),
  } as SubtleCrypto;
  const random = { getRandomValues: source.getRandomValues.bind(source) };
  return { subtle, randomId: () => randomHex(16, random) };
}
