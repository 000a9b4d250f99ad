/**
 * The simulation a recorded run names is found whether the run was of a folder or of a
 * world `hearsay run --scale N` grew from one: `replay --verify`, `skip`, `chat` and
 * `serve` take a scaled run up with the very world and hash it recorded. A name that is
 * neither is refused as not found, by the name the run recorded.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  loadRecordedSimulation,
  loadSimulation,
  SimulationNotFound,
  scaleSimulation,
} from "@hearsay/engine";
import { describe, expect, it } from "vitest";

describe("loadRecordedSimulation", () => {
  it("finds a folder by the name the run recorded", () => {
    expect(loadRecordedSimulation("haskerry").worldHash).toBe(loadSimulation("haskerry").worldHash);
  });

  it("grows a scaled run's world again from the world it was grown from, with its hash", () => {
    const got = loadRecordedSimulation("haskerry-x75");
    const expected = scaleSimulation(loadSimulation("haskerry"), 75);
    expect(got.world.meta.name).toBe("haskerry-x75");
    expect(got.world.npcs).toHaveLength(75);
    expect(got.worldHash).toBe(expected.worldHash);
    expect(got.worldHash).not.toBe(loadSimulation("haskerry").worldHash);
  });

  it.each(["nowhere-x5", "haskerry-x0", "haskerry-x", "haskerry-x05", "nowhere"])(
    "refuses %s as not found, by that name",
    (name) => {
      const cwd = mkdtempSync(join(tmpdir(), "hearsay-recorded-"));
      try {
        expect(() => loadRecordedSimulation(name, cwd)).toThrow(SimulationNotFound);
        try {
          loadRecordedSimulation(name, cwd);
        } catch (e) {
          expect((e as SimulationNotFound).path).toBe(name);
        }
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    },
  );
});
