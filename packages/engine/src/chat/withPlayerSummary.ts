/**
 * Makes sure a dossier for a talk with the player carries the NPC's running summary of
 * the player. Retrieval ranks conversation summaries among memories, so a summary can
 * lose its place to closer matches; in a talk with the player it is the one memory that
 * must be there, first, whatever the query.
 */
import { type Dossier, type DossierItem, estimateTokens } from "@hearsay/core";

export const withPlayerSummary = (
  dossier: Dossier | null,
  conversationId: string,
  summary: string | null,
): Dossier | null => {
  if (dossier === null || summary === null) return dossier;
  const text = `What you know of the player from your talks: ${summary}`;
  const item: DossierItem = {
    kind: "summary",
    id: conversationId,
    score: 1000,
    tokens: estimateTokens(text),
    text,
  };
  let added = 0;
  const sections = dossier.sections.map((s) => {
    if (s.name !== "memories") return s;
    const same = (i: DossierItem) => i.kind === "summary" && i.text.includes(summary);
    const kept = s.items.filter((i) => !same(i));
    const removed = s.items.filter(same).reduce((a, i) => a + i.tokens, 0);
    added = item.tokens - removed;
    return { ...s, tokens: s.tokens + added, items: [item, ...kept] };
  });
  return { ...dossier, sections, totalTokens: dossier.totalTokens + added };
};
