import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { fieldAsksForContract } from "./fieldAsksForContract";

const { document } = parseHTML(`<html><body>
  <div><label>ERC20 Token Address</label><input id="eip747ContractAddress" placeholder="0x..."></div>
  <div><label>Spender Address</label><input id="allowanceSpender"></div>
  <div><label for="nft">NFT collection</label><input id="nft"></div>
  <div><input id="token_address" name="token_address"></div>
  <div><span id="lbl">Contract to verify</span><input id="labelled" aria-labelledby="lbl"></div>
  <div><label>Transfer To</label><input id="transferFromRecipientInput"></div>
  <div><label>To</label><input id="toInput"></div>
  <div><label>Recipient (token holder)</label><input id="holder"></div>
  <div><input id="to" placeholder="Recipient address"></div>
</body></html>`);

const field = (id: string) => document.getElementById(id) as unknown as HTMLElement;

describe("fieldAsksForContract", () => {
  it("knows fields that ask for a token or contract: label before it, id, name, aria-labelledby", () => {
    for (const id of ["eip747ContractAddress", "allowanceSpender", "token_address", "labelled"]) {
      expect({ id, asks: fieldAsksForContract(field(id)) }).toEqual({ id, asks: true });
    }
  });

  it("leaves recipient fields alone, also when a contract word appears beside a recipient one", () => {
    for (const id of ["transferFromRecipientInput", "toInput", "holder", "to"]) {
      expect({ id, asks: fieldAsksForContract(field(id)) }).toEqual({ id, asks: false });
    }
  });
});
