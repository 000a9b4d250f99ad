/**
 * A dossier's prompt text, rendered once. The same dossier is rendered for the prompt
 * and again for the call's input hash (and once more for a repair retry or a fallback
 * model); rendering walks every item, so the text is remembered per dossier object.
 * Dossiers are immutable values, so the text of one never changes.
 */
import { type Dossier, renderDossier } from "@hearsay/core";

const texts = new WeakMap<Dossier, string>();

/** `renderDossier(dossier)`, computed at most once per dossier object. */
export const dossierText = (dossier: Dossier): string => {
  let text = texts.get(dossier);
  if (text === undefined) {
    text = renderDossier(dossier);
    texts.set(dossier, text);
  }
  return text;
};
