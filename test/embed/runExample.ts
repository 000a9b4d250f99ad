/**
 * What `examples/embed/main.mjs` must print when it works: the day it ran, the NPC's
 * dossier and a reply from it. Both embed suites check a run against this.
 */
import { expect } from "vitest";

export const expectExampleRan = (stdout: string): void => {
  expect(stdout).toMatch(/^ran "hamlet" for 1 day: \d+ ticks, [1-9]\d* events in /m);
  expect(stdout).toMatch(/^# Dossier of Ada Reed at day 0, 23:59$/m);
  expect(stdout).toMatch(/^## Who you are$/m);
  expect(stdout).toMatch(/^Ada Reed: \S.+$/m);
  expect(stdout).toMatch(/^Ada Reed now remembers [1-9]\d* thing\(s\) about the player\.$/m);
};
