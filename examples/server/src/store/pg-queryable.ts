/**
 * What the PostgreSQL repositories run their SQL on: a {@link Queryable}, either the pool (each
 * statement on whichever connection is free) or one connection inside a transaction. Work that
 * needs several statements to be atomic (stamping a message's `seq`, pruning then inserting)
 * asks for {@link Queryable.atomic}: a transaction of its own on the pool, a savepoint inside a
 * transaction.
 * @module
 */

import pg from 'pg';

/** A row as node-postgres returns it. */
export type Row = pg.QueryResultRow;

/** Somewhere to run parameterised SQL. */
export interface Queryable {
  /** Runs one parameterised statement. */
  query<R extends Row>(sql: string, params?: readonly unknown[]): Promise<pg.QueryResult<R>>;
  /**
   * Runs `work` so that its statements take effect together or not at all; `work` must run its
   * statements through the queryable it is given.
   */
  atomic<T>(work: (q: Queryable) => Promise<T>): Promise<T>;
}

/** The rows of a query. */
export async function allRows<R extends Row>(q: Queryable, sql: string, params: readonly unknown[] = []): Promise<R[]> {
  return (await q.query<R>(sql, params)).rows;
}

/** The first row of a query, or undefined. */
export async function firstRow<R extends Row>(q: Queryable, sql: string, params: readonly unknown[] = []): Promise<R | undefined> {
  return (await q.query<R>(sql, params)).rows[0];
}

/** How many rows a statement changed. */
export async function changedRows(q: Queryable, sql: string, params: readonly unknown[] = []): Promise<number> {
  return (await q.query(sql, params)).rowCount ?? 0;
}

/**
 * Type parsers for one pool (not the process-wide defaults): BIGINT (times in ms, sizes, `seq`,
 * `COUNT`) comes back as a JS number, as it does from SQLite. Every such value stays far below
 * 2^53.
 */
export function numberTypes(): pg.TypeOverrides {
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, 'text', (value: string) => Number(value));
  return types;
}

/** Returns a connection to the pool, dropping it when it may be left in a transaction. */
async function rollbackAndRelease(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('ROLLBACK');
    client.release();
  } catch (error) {
    client.release(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Runs `work` in a transaction on a connection of its own, committing when it resolves and
 * rolling back when it rejects (or when a statement in it failed); the connection goes back to
 * the pool either way.
 * @internal
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let result: T;
  try {
    await client.query('BEGIN');
    result = await work(client);
    // After a failed statement PostgreSQL answers COMMIT by rolling back, without an error.
    const committed = await client.query('COMMIT');
    if (committed.command === 'ROLLBACK') throw new Error('the transaction was rolled back: a statement in it failed');
  } catch (error) {
    await rollbackAndRelease(client);
    throw error;
  }
  client.release();
  return result;
}

/** The pool: statements run on any free connection; atomic work gets a transaction. */
export class PoolQueryable implements Queryable {
  /** @param pool - the store's pool. */
  constructor(private readonly pool: pg.Pool) {}

  /** {@inheritDoc Queryable.query} */
  query<R extends Row>(sql: string, params: readonly unknown[] = []): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(sql, [...params]);
  }

  /** {@inheritDoc Queryable.atomic} */
  atomic<T>(work: (q: Queryable) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, (client) => work(new ConnectionQueryable(client)));
  }
}

/** One connection already inside a transaction: atomic work is simply part of it. */
class ConnectionQueryable implements Queryable {
  constructor(private readonly client: pg.ClientBase) {}

  query<R extends Row>(sql: string, params: readonly unknown[] = []): Promise<pg.QueryResult<R>> {
    return this.client.query<R>(sql, [...params]);
  }

  atomic<T>(work: (q: Queryable) => Promise<T>): Promise<T> {
    return work(this);
  }
}

/**
 * The connection of a {@link Store.transaction}. Its calls run one after another (so that no
 * statement lands inside another call's savepoint), each inside a savepoint of its own, and once
 * the transaction has ended every call rejects: the connection is back in the pool by then.
 */
export class TransactionQueryable implements Queryable {
  private readonly inside: ConnectionQueryable;
  private tail: Promise<unknown> = Promise.resolve();
  private ended = false;

  /** @param client - the connection, after `BEGIN`. */
  constructor(client: pg.ClientBase) {
    this.inside = new ConnectionQueryable(client);
  }

  /**
   * Runs one statement inside a savepoint: a failing statement is undone alone and the
   * transaction goes on, as a failing statement in a SQLite transaction does (PostgreSQL would
   * otherwise refuse every later statement of the transaction).
   */
  query<R extends Row>(sql: string, params: readonly unknown[] = []): Promise<pg.QueryResult<R>> {
    return this.atomic((q) => q.query<R>(sql, params));
  }

  /** {@inheritDoc Queryable.atomic} */
  atomic<T>(work: (q: Queryable) => Promise<T>): Promise<T> {
    return this.serially(async () => {
      await this.inside.query('SAVEPOINT kefu_atomic');
      try {
        const result = await work(this.inside);
        await this.inside.query('RELEASE SAVEPOINT kefu_atomic');
        return result;
      } catch (error) {
        await this.inside.query('ROLLBACK TO SAVEPOINT kefu_atomic');
        await this.inside.query('RELEASE SAVEPOINT kefu_atomic');
        throw error;
      }
    });
  }

  /**
   * Waits for the calls already made, then marks the transaction ended so that later calls reject.
   * @internal
   */
  end(): Promise<void> {
    return this.serially(async () => {
      this.ended = true;
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(() => {
      if (this.ended) throw new Error('the transaction has ended');
      return work();
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
}
