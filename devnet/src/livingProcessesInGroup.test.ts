import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { livingProcessesInGroup } from "./livingProcessesInGroup";

describe("livingProcessesInGroup", () => {
  it("lists a running process group and nothing once it has exited", async () => {
    const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const groupId = child.pid ?? 0;
    expect(livingProcessesInGroup(groupId)).toEqual([groupId]);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-groupId, "SIGKILL");
    await exited;
    expect(livingProcessesInGroup(groupId)).toEqual([]);
  });

  it("finds nothing for a group that does not exist", () => {
    expect(livingProcessesInGroup(2 ** 22 + 1)).toEqual([]);
  });
});
