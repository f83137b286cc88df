/**
 * Statement text from the shared column lists of `rows*.ts`, with better-sqlite3's named
 * parameters (bound from a row object).
 * @module
 */

import { columnList } from './rows.js';

/** The named parameters of `columns`, in order: `@a, @b, @c`. */
export const namedParams = (columns: readonly string[]): string => columns.map((column) => `@${column}`).join(', ');

/** `INSERT INTO table (a, b) VALUES (@a, @b)`. */
export const insertInto = (table: string, columns: readonly string[]): string =>
  `INSERT INTO ${table} (${columnList(columns)}) VALUES (${namedParams(columns)})`;
