import { OpenAPIHono } from "@hono/zod-openapi";
import { snapshotKinds, snapshotSchemas } from "@presend/shared/api/snapshots/snapshotKinds";
import { beforeAll, describe, expect, it } from "vitest";
import { registerDataRoutes, snapshotCacheControl } from "./dataRoutes";
import { type LoadedSnapshots, loadSnapshots } from "./loadSnapshots";

let snapshots: LoadedSnapshots;
let app: OpenAPIHono;
beforeAll(async () => {
  snapshots = await loadSnapshots();
  app = new OpenAPIHono();
  registerDataRoutes(app, snapshots);
});

describe("registerDataRoutes", () => {
  it.each(snapshotKinds)(
    "GET /%s serves the document with ETag and Cache-Control",
    async (kind) => {
      const response = await app.request(`/${kind}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("etag")).toBe(snapshots[kind].etag);
      expect(response.headers.get("cache-control")).toBe(snapshotCacheControl);
      const body = await response.json();
      expect(snapshotSchemas[kind].schema.parse(body)).toEqual(snapshots[kind].document);
    },
  );

  it.each(snapshotKinds)(
    "GET /%s answers 304 without a body, with its validators, when If-None-Match carries its current ETag",
    async (kind) => {
      const { etag } = snapshots[kind];
      for (const header of [etag, `W/${etag}`, `"stale", ${etag}`, "*"]) {
        const response = await app.request(`/${kind}`, { headers: { "If-None-Match": header } });
        expect(response.status).toBe(304);
        expect(response.headers.get("etag")).toBe(etag);
        expect(response.headers.get("cache-control")).toBe(snapshotCacheControl);
        expect(await response.text()).toBe("");
      }
      const stale = await app.request(`/${kind}`, { headers: { "If-None-Match": '"stale"' } });
      expect(stale.status).toBe(200);
    },
  );

  it("serves the document when If-None-Match carries another document's ETag", async () => {
    for (const kind of snapshotKinds) {
      const others = snapshotKinds.filter((other) => other !== kind);
      const response = await app.request(`/${kind}`, {
        headers: { "If-None-Match": others.map((other) => snapshots[other].etag).join(", ") },
      });
      expect(response.status).toBe(200);
    }
  });

  it("documents the four routes in OpenAPI with tag data, no security and named schemas", () => {
    const doc = app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: { title: "presend", version: "1.0.0" },
    });
    for (const kind of snapshotKinds) {
      const operation = doc.paths?.[`/${kind}`]?.get;
      expect(operation?.tags).toEqual(["data"]);
      expect(operation?.security).toEqual([]);
      const component = snapshotSchemas[kind].component;
      expect(doc.components?.schemas?.[component]).toBeDefined();
      expect(JSON.stringify(operation?.responses?.["200"])).toContain(
        `#/components/schemas/${component}`,
      );
      expect(operation?.responses?.["304"]).toBeDefined();
    }
  });
});
