/**
 * Prints a benchmark's results as an aligned text table: a title, a header and one row
 * per measurement. Numbers are right-aligned and grouped; everything else left-aligned.
 */

/** One table cell: text, or a number printed with at most `digits` decimals. */
export type Cell = string | number;

const format = (c: Cell, digits: number): string =>
  typeof c === "number"
    ? c.toLocaleString("en-US", { maximumFractionDigits: Number.isInteger(c) ? 0 : digits })
    : c;

/** Renders a table as text (no trailing newline). */
export const renderTable = (
  title: string,
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  digits = 2,
): string => {
  const text = rows.map((r) => r.map((c) => format(c, digits)));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((r) => (r[i] ?? "").length)));
  const numeric = header.map(
    (_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === "number"),
  );
  const line = (cells: ReadonlyArray<string>) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [title, line(header), widths.map((w) => "-".repeat(w)).join("  "), ...text.map(line)].join(
    "\n",
  );
};

/** Prints a table to stdout, followed by a blank line. */
export const printTable = (
  title: string,
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  digits = 2,
): void => {
  console.log(`${renderTable(title, header, rows, digits)}\n`);
};
