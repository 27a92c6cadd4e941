import { describe, expect, it } from "vitest";
import { withRateLimitAnswers } from "./withRateLimitAnswers";

describe("withRateLimitAnswers", () => {
  it("adds the 429 to every operation, keeps a declared one and leaves path-level fields alone", () => {
    const declared = { description: "declared here" };
    const document = withRateLimitAnswers({
      paths: {
        "/a": {
          get: { responses: { "200": {} } },
          post: { responses: { "200": {}, "429": declared } },
          parameters: [],
        },
        "/b": { get: { responses: {} } },
      },
    });
    const { "/a": a, "/b": b } = document.paths;
    expect(Object.keys(a.get.responses)).toEqual(["200", "429"]);
    expect(a.post.responses).toMatchObject({ "429": declared });
    expect(b.get.responses).toHaveProperty("429");
    expect(a.parameters).toEqual([]);
  });
});
