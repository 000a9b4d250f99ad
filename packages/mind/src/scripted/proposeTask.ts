/**
 * Task proposals of the scripted brain: a chore that fits the proposer's trade (read
 * from its role) or the place it stands in, assigned to itself, to a present member of
 * its faction, or to nobody in particular, with a deadline of days.
 */
import type { Prng } from "@hearsay/core";
import type { ActInput, ActOutput } from "../purposes/ActPurpose.ts";
import { remembered } from "./remembered.ts";
import { fill, type Tone, type Voice } from "./Voice.ts";

const byTrade: ReadonlyArray<readonly [ReadonlyArray<string>, ReadonlyArray<string>]> = [
  [
    ["smith", "forge", "armour", "armor"],
    ["Forge new hinges for the {place} gate", "Sharpen the watch's blades"],
  ],
  [
    ["farm", "herd", "shepherd", "grow", "miller"],
    ["Bring in the late harvest", "Mend the fences by {place}"],
  ],
  [
    ["guard", "watch", "soldier", "captain", "warden"],
    ["Walk an extra watch around {place}", "Drill the new recruits"],
  ],
  [
    ["merchant", "trader", "shop", "peddler", "factor"],
    ["Settle the accounts of {place}", "Bring in fresh stock before market day"],
  ],
  [
    ["priest", "cleric", "monk", "acolyte", "healer", "herbal"],
    ["Prepare the rites for the holy day", "Gather healing herbs for the winter"],
  ],
  [
    ["scholar", "scribe", "archiv", "teacher", "clerk"],
    ["Copy the old records before they rot", "Teach the children their letters"],
  ],
  [
    ["fisher", "sailor", "boat", "dock", "ferry"],
    ["Patch the nets and hulls at {place}", "Chart the shoals after the storm"],
  ],
  [
    ["cook", "baker", "brew", "innkeep", "tavern"],
    ["Brew a fresh batch for the festival", "Lay in flour and salt for the cold months"],
  ],
  [
    ["hunter", "ranger", "scout", "trapper"],
    ["Scout the road past {place}", "Track whatever is taking the sheep"],
  ],
];

const anywhere = [
  "Repair what the last storm broke at {place}",
  "Clear the blocked well at {place}",
  "Carry a message to the next town",
  "Organise a gathering at {place}",
];

const descriptions = [
  "It has waited long enough; {place} needs it done.",
  "If nobody does it now, we will all regret it come winter.",
  "A small job, but people will notice if it is left.",
];

const asks: Record<Tone, ReadonlyArray<string>> = {
  warm: ["Many hands would make it light.", "I'd be grateful for any help."],
  gruff: ["Needs doing. That's all.", "No excuses this time."],
  formal: ["I propose we see to it promptly.", "It should be done properly."],
  sly: ["Whoever does it will be owed a favour.", "It would be worth someone's while."],
  pious: ["It is a duty, and a small one.", "Let it be done with care."],
  anxious: ["Please, before something goes wrong.", "I'd feel better if it were done."],
  jovial: ["Come on, it'll be fun!", "Do it and the first round's on me."],
  plain: ["Someone should see to it.", "It won't take long."],
};

const ideasOf = (role: string): ReadonlyArray<string> => {
  const lower = role.toLowerCase();
  const trade = byTrade.find(([keys]) => keys.some((k) => lower.includes(k)))?.[1] ?? [];
  return [...trade, ...trade, ...anywhere];
};

/** Ideas by role: every proposal asks, and a role's ideas never change. */
const ideasByRole = remembered((role: string, _: number) => ideasOf(role), 65_536);

/** Task ideas fitting a role, plus ones that fit anyone. */
export const taskIdeas = (role: string): ReadonlyArray<string> => ideasByRole(role, 0);

export interface ProposeContext {
  readonly input: ActInput;
  readonly prng: Prng;
  readonly voice: Voice;
}

export const proposeTask = ({ input, prng, voice }: ProposeContext): ActOutput => {
  const slots = { place: input.location.name };
  const kin = input.present.filter(
    (p) => input.self.factionId !== null && p.factionId === input.self.factionId,
  );
  const roll = prng.float();
  const assignee =
    roll < 0.5 ? input.self.id : roll < 0.85 && kin.length > 0 ? prng.pick(kin).id : null;
  const description = `${fill(prng.pick(descriptions), slots)} ${prng.pick(asks[voice.tone])}`;
  return {
    action: "propose_task",
    title: fill(prng.pick(taskIdeas(input.self.role)), slots),
    description,
    assignee,
    deadlineDays: prng.int(1, 7),
  };
};
