/**
 * Keys of the searchable read-model items (memories, world events, lore chunks, debates,
 * conversation summaries and turns): their rowids, which FTS5 indexes them by and the
 * retrieval view and its vectors know them by. Keys are below 2^53 (exact in a JS number)
 * and are grouped in spaces of `ITEM_KEY_SPACE` keys: structures indexed by key keep one
 * dense array per space, so they stay as long as the items when each save's keys are
 * dense within its own space.
 */

/** How many keys one key space holds (2^32). */
export const ITEM_KEY_SPACE = 2 ** 32;
