/**
 * A time skip in a world a player is talking to: the engine resumes the run and jumps
 * `days` days (a recorded `jump`: deadlines, expiries and decay in the span apply,
 * nothing else happens — see Skips.ts), extending the run's length if the skip would pass its
 * end. Skips start on the hour, so a clock between hours ticks up to the next one first.
 * The caller holds the save's writer lock.
 */
import { dayOf, type GameTime } from "@hearsay/core";
import { runSimulation } from "../Simulation.ts";
import type { TalkWriter } from "./TalkWriter.ts";

export const skipWorldDays = async (talk: TalkWriter, days: number): Promise<void> => {
  const { spec } = talk;
  const sim = spec.simulation;
  const base = {
    world: sim.world,
    worldHash: sim.worldHash,
    lore: sim.lore,
    log: spec.log,
    saveId: spec.saveId,
    brain: spec.brain,
    recordBrain: spec.recordBrain,
    dossiers: () => talk.dossiers,
    resume: true,
    config: talk.config,
    focus: talk.focus(),
  };
  const startDay = sim.world.meta.start.day;
  let t: number = talk.state.t;
  const endDay = Math.max(talk.state.endDay, dayOf((t + days * 1440) as GameTime) + 1);
  if (t % 60 !== 0) {
    await runSimulation({
      ...base,
      days: endDay - startDay,
      maxTicks: Math.ceil((60 - (t % 60)) / sim.world.meta.tickMinutes),
    });
    talk.catchUp();
    t = talk.state.t;
  }
  await runSimulation({
    ...base,
    days: endDay - startDay,
    maxTicks: 1,
    skips: [
      { atDay: dayOf(t as GameTime), atHour: Math.floor((t % 1440) / 60), mode: "jump", days },
    ],
  });
};
