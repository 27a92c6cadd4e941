import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { tabbableIn } from "./tabbableIn";

// The names (data-name) of what tabbableIn finds in `html`.
function tabbableNames(html: string): Array<string | null> {
  const { document } = parseHTML(`<html><body><div id="root">${html}</div></body></html>`);
  const root = document.getElementById("root") as unknown as ParentNode;
  return tabbableIn(root).map((element) => element.getAttribute("data-name"));
}

describe("tabbableIn", () => {
  it("counts a disclosure's summary as a control, first or last", () => {
    expect(
      tabbableNames(`
        <details><summary data-name="first">Details</summary></details>
        <button data-name="middle">Copy</button>
        <details><summary data-name="last">Check again</summary></details>`),
    ).toEqual(["first", "middle", "last"]);
  });

  it("leaves out what a closed disclosure hides, keeps what an open one shows", () => {
    expect(
      tabbableNames(`
        <details><summary data-name="closed">Address</summary>
          <button data-name="hidden">Copy address</button></details>
        <details open><summary data-name="open">Details</summary>
          <button data-name="shown">Copy report</button>
          <details><summary data-name="nested">More</summary><a href="#" data-name="deep">x</a></details>
        </details>`),
    ).toEqual(["closed", "open", "shown", "nested"]);
  });

  it("leaves out disabled controls, hidden inputs and a script's own focus targets", () => {
    expect(
      tabbableNames(`
        <button data-name="off" disabled>Check</button>
        <select data-name="chain"></select>
        <input type="hidden" data-name="secret">
        <input data-name="text">
        <textarea data-name="area"></textarea>
        <section tabindex="-1" data-name="card"></section>
        <span tabindex="0" data-name="span"></span>
        <a data-name="no-href">plain</a>`),
    ).toEqual(["chain", "text", "area", "span"]);
  });
});
