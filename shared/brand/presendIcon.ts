/**
 * presend's icon as SVG: the extension's PNG icons are rendered from it, and the API serves it as
 * its favicon (crawlers of x402 services show it beside the listing).
 * @example new Response(presendIconSvg, { headers: { "content-type": "image/svg+xml" } })
 */
export const presendIconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128">
  <title>presend</title>
  <rect width="128" height="128" rx="28" fill="#1d4ed8"/>
  <path d="M64 18 L100 31 V60 C100 84 84 101 64 110 C44 101 28 84 28 60 V31 Z" fill="#fff"/>
  <path d="M46 63 L59 76 L83 50" fill="none" stroke="#1d4ed8" stroke-width="11" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;
