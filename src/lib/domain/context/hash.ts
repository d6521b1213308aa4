/**
 * SHA-256 as lowercase hex, via Web Crypto (`crypto.subtle`: Node 20, browsers and workers). Used for
 * `stablePrefixHash` (seed 004 "stablePrefixHash 的口径稳定且可用于验收"): the input is the UTF-8 bytes of
 * the L0–L3 text only.
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
