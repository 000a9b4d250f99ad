/** Stable colours for event types, purposes and ways of knowing. */
const colours = [
  "#4c78a8",
  "#f58518",
  "#54a24b",
  "#e45756",
  "#72b7b2",
  "#eeca3b",
  "#b279a2",
  "#ff9da6",
  "#9d755d",
  "#bab0ac",
  "#1f77b4",
  "#2ca02c",
  "#d62728",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#bcbd22",
  "#17becf",
  "#aec7e8",
  "#ffbb78",
];

/** A colour for a name, the same every time. */
export const colourOf = (name: string, all?: ReadonlyArray<string>): string => {
  const i = all
    ? all.indexOf(name)
    : [...name].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7);
  return colours[Math.abs(i) % colours.length]!;
};

/** How an NPC came to know something. */
export const viaColour: Readonly<Record<string, string>> = {
  owner: "#222",
  witnessed: "#4c78a8",
  participant: "#54a24b",
  faction: "#b279a2",
  broadcast: "#9d755d",
  told: "#f58518",
  rumor: "#e45756",
};
