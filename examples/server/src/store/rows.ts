/**
 * What the rows of both stores are built from: flag columns, column lists and the small helpers
 * that turn rows into records and back. The rows themselves are written once each, per
 * repository: `rows-chat.ts`, `rows-directory.ts`, `rows-records.ts`; the SQL stays in
 * `sqlite-*.ts` and `pg-*.ts`.
 *
 * One row shape serves both databases: a flag column is `INTEGER` 0/1 in SQLite and `BOOLEAN` in
 * PostgreSQL, so a row read back holds a {@link Flag}; rows built for writing hold 0 or 1, which
 * both accept (PostgreSQL reads `'1'` as true). Times are numbers on both (see `pg-queryable.ts`).
 * @module
 */

/** A flag column as read back: 0/1 from SQLite, a boolean from PostgreSQL. */
export type Flag = number | boolean;

/** Whether a flag column is set. */
export const isSet = (flag: Flag): boolean => flag === true || flag === 1;

/** A flag as a column value both databases accept. */
export const flagValue = (on: boolean): 0 | 1 => (on ? 1 : 0);

/** A column list as SQL: `a, b, c`. */
export const columnList = (columns: readonly string[]): string => columns.join(', ');

/** A record mapped from `row` by `map`, or undefined when no row was found. */
export const mapRow = <R, T>(row: R | undefined, map: (row: R) => T): T | undefined => (row === undefined ? undefined : map(row));

/** The values of `row` in the order of `columns` (for positional parameters). */
export function rowValues<R, K extends keyof R>(row: R, columns: readonly K[]): R[K][] {
  return columns.map((column) => row[column]);
}

/** The columns a row of a table is written with, in order (a key of the row type each). */
export type ColumnsOf<R> = readonly (keyof R & string)[];
