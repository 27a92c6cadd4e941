import { levels } from "@presend/shared/api/report";
import { chainNames } from "@presend/shared/chains/chains";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { demoAddresses } from "./demoWorld";

describe("demoAddresses", () => {
  it("has unique labels and addresses in EIP-55 form on supported chains", () => {
    expect(new Set(demoAddresses.map((demo) => demo.label)).size).toBe(demoAddresses.length);
    for (const demo of demoAddresses) {
      expect(demo.address).toBe(getAddress(demo.address));
      expect(chainNames).toContain(demo.chain);
    }
  });

  it("covers every verdict level on both /check and /deep", () => {
    for (const level of levels) {
      expect(demoAddresses.some((demo) => demo.expected.check === level)).toBe(true);
      expect(demoAddresses.some((demo) => demo.expected.deep === level)).toBe(true);
    }
  });

  it("keeps the documented addresses stable across runs and releases", () => {
    // The README lists these; a change here must be a deliberate documentation change.
    expect(
      Object.fromEntries(demoAddresses.map((demo) => [demo.label, demo.address])),
    ).toMatchInlineSnapshot(`
      {
        "active-eoa-on-base": "0x5982758b12b31D28DEBeC877D26d26C9A0cB7BfA",
        "active-lookalike": "0x9fB369Cf242337A1E34B06Cc169e7Cf1Cec17aD7",
        "bridged-usdc-only-on-arbitrum": "0x05AeeF3CA36bA9984E4f215cB084B2aFc28243B0",
        "burn-address": "0x000000000000000000000000000000000000dEaD",
        "canonical-safe-on-ethereum-only": "0x3d0604779B35a4D9627fCB1aB00327004d4c4743",
        "contract-rejecting-eth-on-base": "0x4c9e4e9b383210F681C2698ba354B62E1A52274B",
        "eip7702-sweeper-on-base": "0x2278D990802c15f122F4253eAD276F067124df24",
        "eip7702-wallet-delegate-on-base": "0xd40F03db4616FC02d3A7D1C13B8607fF2E9BE1d3",
        "eoa-active-on-arbitrum-only": "0xC917260256BD57D4B1DCBf9A63036ee7198bE6B0",
        "erc20-token-on-base": "0xfbf51ab095F33A4A0F0d69485c6c954c721c3f45",
        "exchange-deposit-checked-for-ethereum": "0x5a582aa703c7c070369991D61675409838fD7c24",
        "exchange-deposit-on-base": "0x5a582aa703c7c070369991D61675409838fD7c24",
        "fresh-address": "0xb1cc12A0f204B85eDbFe7f08bBC11687801b3519",
        "fresh-lookalike": "0x9fB3Be896bE9E77d6f262503289f9bd1E0417Ad7",
        "genuine-counterparty": "0x9fb30c1b3160D3a0299f71A83cD833bf93517Ad7",
        "listed-scam": "0x2F2D9c4CdD3Ad4C16557010b5a215615B140Fb91",
        "nft-collection-on-base": "0x0b92251a17438546A70048a3FabF0e056fdf8970",
        "receive-only-on-base": "0x61EbEb722Be2Fb7CE058Ce4247ea7c3e2b8E3F0C",
        "safe-on-ethereum-only": "0x8970839Adb1e614Dc363396306f0143Ca9B38141",
        "sender-with-history": "0x1573EdD993C1AD2cf1f7ac3CEfe4Cbc0eE184C16",
        "sprayed-poisoning-address": "0xCFAD6457c2f9dC9A1aFD3ccF6E6600b092B4fd55",
        "unused-safe-on-base": "0xB550ADC50789E443C9F0e220D330A0BAacA3D062",
        "usdc-contract-on-base": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        "used-safe-on-base": "0xd6cb9b63047c0b6B646C854C12a6638a3C93115A",
        "used-smart-account-on-base": "0xF3A6ea3b800Be03a72cf735Daa2bA7080a7a3D3C",
        "zero-address": "0x0000000000000000000000000000000000000000",
      }
    `);
  });
});
