import { describe, expect, it } from "vitest";
import { spoken } from "../src/scripted/composeLine.ts";

describe("spoken", () => {
  it("drops the dossier's time stamps and turns a memory heading into speech", () => {
    expect(spoken("(day 0, 06:00) About Bartholomew Lusk: The Master.")).toBe(
      "Bartholomew Lusk — The Master.",
    );
    expect(spoken("day 2, 11:00: Agnes Halse finished the brew.")).toBe(
      "Agnes Halse finished the brew.",
    );
  });

  it("leaves text without those marks as it is", () => {
    expect(spoken("The Gut has moved: about half an hour.")).toBe(
      "The Gut has moved: about half an hour.",
    );
  });
});
