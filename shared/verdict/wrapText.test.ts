import { describe, expect, it } from "vitest";
import { wrapText } from "./wrapText";

describe("wrapText", () => {
  it.each([
    ["short text stays on one line", "- one two", 20, "  ", ["- one two"]],
    ["wraps with an indent", "- one two three four", 10, "  ", ["- one two", "  three", "  four"]],
    [
      "a long word stays whole",
      "- 0x0123456789abcdef end",
      8,
      "  ",
      ["-", "  0x0123456789abcdef", "  end"],
    ],
    ["collapses whitespace", "a   b\nc", 20, "", ["a b c"]],
    ["empty text has no lines", "", 20, "", []],
    ["a short text loses leading, trailing and tab spacing", " a\tb ", 20, "", ["a b"]],
    ["a text exactly as wide as the width stays whole", "abc de", 6, "  ", ["abc de"]],
  ])("%s", (_, text, width, indent, expected) => {
    expect(wrapText(text, { width, indent })).toEqual(expected);
  });
});
