/**
 * How a brain reads a dossier: one section at a time, or whole. A brain request carries a
 * reader, never a dossier whose properties build themselves when touched: building a
 * dossier is most of what a scripted turn costs and the scripted brain reads one to four
 * sections, while a prompt and an input hash read it whole. Reading is a call, so what a
 * brain costs is visible where it reads.
 */
import {
  type Dossier,
  type DossierHead,
  type DossierSection,
  type DossierSectionName,
  dossierSectionNames,
} from "./Dossier.ts";

export interface DossierReader {
  /** The section named, when there is a dossier and it has that section. */
  section(name: DossierSectionName): DossierSection | undefined;
  /** The whole dossier, every section built, the same object on every call; null: none. */
  whole(): Dossier | null;
}

/** A reader over a dossier already built (or over none). */
export const dossierReader = (dossier: Dossier | null): DossierReader => ({
  section: (name) => dossier?.sections.find((s) => s.name === name),
  whole: () => dossier,
});

/** A reader whose sections are built as they are first read, until it is sealed. */
export interface DeferredDossier extends DossierReader {
  readonly head: DossierHead;
  /** What the dossier holds now: no section is built after this (a late read throws). */
  seal(): void;
}

const plain = (s: DossierSection): DossierSection => ({
  name: s.name,
  budget: s.budget,
  tokens: s.tokens,
  items: s.items,
  ...(s.parted === true ? { parted: true as const } : {}),
});

/**
 * A dossier built section by section, each on its first read; `whole()` builds the rest.
 * Sections are cut to their own budgets, independently, so a section built alone is the
 * one the whole dossier holds: a brain that reads two sections pays for two.
 *
 * `build` must give the section named, with `budgets[name]`. Once sealed (the store is
 * about to move on), reading a section not yet built throws instead of building it from
 * a later state than the dossier's.
 */
export const deferDossier = (
  head: DossierHead,
  budgets: Readonly<Record<DossierSectionName, number>>,
  build: (name: DossierSectionName) => DossierSection,
): DeferredDossier => {
  const built = new Map<DossierSectionName, DossierSection>();
  let sealed = false;
  let whole: Dossier | undefined;
  const section = (name: DossierSectionName): DossierSection => {
    const known = built.get(name);
    if (known !== undefined) return known;
    if (sealed)
      throw new Error(
        `dossier section "${name}" of ${head.npcId} at ${head.t} was read after its turn ended`,
      );
    const s = build(name);
    if (s.name !== name || s.budget !== budgets[name])
      throw new Error(
        `dossier section "${name}" was built as "${s.name}" with budget ${s.budget}, not ${budgets[name]}`,
      );
    const cut = plain(s);
    built.set(name, cut);
    return cut;
  };
  return {
    head,
    section,
    whole: () => {
      if (whole === undefined) {
        const sections = dossierSectionNames.map(section);
        whole = { ...head, totalTokens: sections.reduce((a, s) => a + s.tokens, 0), sections };
      }
      return whole;
    },
    seal: () => {
      sealed = true;
    },
  };
};
