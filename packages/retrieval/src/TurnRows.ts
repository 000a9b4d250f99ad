/**
 * The dialogue turns the view keeps for each NPC (`SaveView.turns`): every turn it spoke
 * or heard as its time and rowid, and the row a dossier's dialogue quotes — speaker,
 * conversation, index, text — of only its last {@link KEPT_TURN_ROWS}, the most a
 * dossier's dialogue shows. A dossier at the view's head so reads no table for its
 * dialogue (once the store appends off the main thread, a read of its tables waits for
 * the previous tick's commit), and the texts the view holds stay bounded by NPCs ×
 * {@link KEPT_TURN_ROWS} however long the run: a turn's row leaves an NPC's list once
 * that NPC has taken part in as many later turns, and is freed once no NPC's list keeps it.
 * A dossier asking for an older turn (one of an earlier time) reads its row.
 */
import type { TurnRow } from "./DossierSource.ts";

/** Rows kept per NPC: the most turns a dossier's dialogue shows (`buildDossier`). */
export const KEPT_TURN_ROWS = 6;

/** One dialogue turn an NPC spoke or heard. */
export interface TurnRef {
  readonly t: number;
  readonly rowid: number;
  /** The turn's row while it is among the NPC's last {@link KEPT_TURN_ROWS} (else read it). */
  row: TurnRow | undefined;
}

/** Appends a turn to an NPC's list, dropping the row of the one that leaves the window. */
export const pushTurn = (list: Array<TurnRef>, ref: TurnRef): void => {
  list.push(ref);
  const leaving = list[list.length - 1 - KEPT_TURN_ROWS];
  if (leaving !== undefined) leaving.row = undefined;
};

/**
 * Gives the last {@link KEPT_TURN_ROWS} turns of every list their rows, read by rowid
 * (after a load, which reads no text of the turns it only keeps the times of); a turn in
 * several NPCs' windows is read once.
 */
export const fillTurnRows = (
  lists: Iterable<Array<TurnRef>>,
  read: (rowid: number) => TurnRow | undefined,
): void => {
  const rows = new Map<number, TurnRow | undefined>();
  for (const list of lists) {
    for (let i = Math.max(0, list.length - KEPT_TURN_ROWS); i < list.length; i++) {
      const ref = list[i]!;
      let row = rows.get(ref.rowid);
      if (row === undefined && !rows.has(ref.rowid)) {
        row = read(ref.rowid);
        rows.set(ref.rowid, row);
      }
      ref.row = row;
    }
  }
};
