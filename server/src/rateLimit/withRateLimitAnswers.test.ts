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
    const paths = document.paths as Record<string, Record<string, { responses: object }>>;
    expect(Object.keys(paths["/a"]?.get?.responses ?? {})).toEqual(["200", "429"]);
    expect(paths["/a"]?.post?.responses).toMatchObject({ "429": declared });
    expect(paths["/b"]?.get?.responses).toHaveProperty("429");
    expect(paths["/a"]?.parameters).toEqual([]);
  });
});
