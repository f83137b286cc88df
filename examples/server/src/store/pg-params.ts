/**
 * Statement text from the shared column lists of `rows*.ts`, with PostgreSQL's positional
 * parameters (bound from `rowValues(row, columns)`).
 * @module
 */

import { columnList } from './rows.js';

/** The positional parameters `$1, $2, ..., $n`. */
export const placeholders = (n: number): string => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');

/** `INSERT INTO table (a, b) VALUES ($1, $2)`. */
export const insertInto = (table: string, columns: readonly string[]): string =>
  `INSERT INTO ${table} (${columnList(columns)}) VALUES (${placeholders(columns.length)})`;
