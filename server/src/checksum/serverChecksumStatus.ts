import { type ChecksumResult, checksumStatus } from "@presend/shared/address/checksumStatus";
import { createKeccak } from "hash-wasm";

// One WebAssembly Keccak-256 for the process, made once when the module loads. It is used
// synchronously (init, update, digest with nothing awaited between), so requests never share a
// half-finished hash.
const keccak = await createKeccak(256);

function wasmKeccakOfText(text: string): Uint8Array {
  keccak.init();
  keccak.update(text);
  return keccak.digest("binary");
}

/**
 * The shared EIP-55 check with the server's hash: hash-wasm's Keccak-256 costs about a tenth of
 * the pure-JavaScript one every page script bundles, and hashing was the largest single cost of
 * the free /validate route (npm run bench). Same answers as `checksumStatus` for every input.
 * @example serverChecksumStatus("0xd8da6bf26964af9d7eed9e03e53415d37aa96045").normalized
 */
export function serverChecksumStatus(input: string): ChecksumResult {
  return checksumStatus(input, wasmKeccakOfText);
}
