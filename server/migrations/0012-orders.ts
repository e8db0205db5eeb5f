import { type Kysely, PostgresAdapter, sql } from 'kysely'

/**
 * Points, orders and recharges (issue 20, contract/orders.ts). Points move only through the
 * ledger: a movement is two entries that sum to zero, written in one transaction with the
 * cached balances of both accounts (server/modules/orders/ledger.ts). The database itself
 * keeps the invariants a bug could break:
 * - `ledger_entries` and `ledger_movements` refuse UPDATE and DELETE (triggers), so the
 *   history is append-only;
 * - one movement per (kind, reference): an order is charged once, a recharge credited once;
 * - a user's cached balance is never negative (check);
 * - one unpaid order per project (partial unique index), so two racing `addOrder` calls
 *   cannot both succeed;
 * - a pay or recharge idempotency key names one order or recharge per user.
 * Dialect-neutral apart from the triggers' syntax. Amounts are whole points (bigint; PostgreSQL
 * hands bigint back as text, so repositories read them through Number()).
 */
export interface OrderTables {
  price_items: PriceItemsTable
  shopping_lines: ShoppingLinesTable
  orders: OrdersTable
  order_lines: OrderLinesTable
  recharges: RechargesTable
  ledger_accounts: LedgerAccountsTable
  ledger_movements: LedgerMovementsTable
  ledger_entries: LedgerEntriesTable
}

/** What lines are priced by (admin data; seeded by server/modules/orders/price-items.ts). */
export interface PriceItemsTable {
  id: string
  /** SPEC §3 line type '1'..'6'. */
  type: string
  /** JSON text `{ ko, zh, en }`. */
  names_json: string
  unit: string
  /** Points per unit; −1 free, −9 contact us. */
  price: number | string
  /** JSON text `{ ko, zh, en }`. */
  price_des_json: string
  price_des_state: string
  sort_order: number
  is_active: number
  updated_at: string
}

/** A project's stable line id per price item (what `addOrder` names). */
export interface ShoppingLinesTable {
  id: string
  project_id: string
  item_id: string
  created_at: string
}

/** An order of one project by one user. Kept after the project is deleted (money history). */
export interface OrdersTable {
  id: string
  order_no: string
  project_id: string
  project_name: string
  user_id: string
  state: 'unpaid' | 'paid' | 'cancelled'
  total: number | string
  /** The metered lines counted what was stored up to this moment. */
  metered_until: string
  /** The idempotency key of the payment, when one was sent. */
  pay_key: string | null
  created_at: string
  paid_at: string | null
  cancelled_at: string | null
}

/** A line as ordered: names, price and counts copied at ordering time. */
export interface OrderLinesTable {
  order_id: string
  line_no: number
  line_id: string
  item_id: string
  type: string
  names_json: string
  unit: string
  count: number | string
  price: number | string
  amount: number | string
}

/** A recharge or bank transfer, pending until an admin confirms it by its code. */
export interface RechargesTable {
  id: string
  code: string
  user_id: string
  method: 'online' | 'bank'
  amount: number | string
  state: 'pending' | 'confirmed' | 'cancelled'
  payer_name: string
  bank_reference: string
  idempotency_key: string | null
  created_at: string
  confirmed_at: string | null
  confirmed_by: string | null
  cancelled_at: string | null
}

/** A ledger account: a user's, or the system's revenue (payments) and funding (recharges). */
export interface LedgerAccountsTable {
  id: string
  kind: 'user' | 'revenue' | 'funding'
  user_id: string | null
  /** The sum of the account's entries, kept in the same transaction as each entry. */
  balance: number | string
  created_at: string
  updated_at: string
}

/** One movement of points: its two entries sum to zero. */
export interface LedgerMovementsTable {
  id: string
  kind: 'payment' | 'recharge'
  /** The order or recharge moved for. */
  reference_id: string
  created_by: string | null
  created_at: string
}

/** One side of a movement: a signed amount on one account. */
export interface LedgerEntriesTable {
  id: string
  movement_id: string
  account_id: string
  amount: number | string
  created_at: string
}

const appendOnlyTables = ['ledger_entries', 'ledger_movements'] as const

/** Creates the tables, indexes, checks and the append-only triggers. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter

  await db.schema
    .createTable('price_items')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('names_json', 'text', (column) => column.notNull())
    .addColumn('unit', 'text', (column) => column.notNull())
    .addColumn('price', 'bigint', (column) => column.notNull())
    .addColumn('price_des_json', 'text', (column) => column.notNull())
    .addColumn('price_des_state', 'text', (column) => column.notNull().defaultTo('0'))
    .addColumn('sort_order', 'integer', (column) => column.notNull())
    .addColumn('is_active', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addCheckConstraint('price_items_price_check', sql`price >= 0 or price = -1 or price = -9`)
    .execute()

  await db.schema
    .createTable('shopping_lines')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) =>
      column.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('item_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('shopping_lines_project_item_unique', ['project_id', 'item_id'])
    .execute()

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('order_no', 'text', (column) => column.notNull().unique())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('project_name', 'text', (column) => column.notNull())
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('total', 'bigint', (column) => column.notNull())
    .addColumn('metered_until', 'text', (column) => column.notNull())
    .addColumn('pay_key', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('paid_at', 'text')
    .addColumn('cancelled_at', 'text')
    .addCheckConstraint('orders_state_check', sql`state in ('unpaid', 'paid', 'cancelled')`)
    .addCheckConstraint('orders_total_check', sql`total > 0`)
    .execute()
  await db.schema
    .createIndex('orders_one_unpaid_per_project')
    .on('orders')
    .column('project_id')
    .unique()
    .where(sql.ref('state'), '=', 'unpaid')
    .execute()
  await db.schema
    .createIndex('orders_pay_key_unique')
    .on('orders')
    .columns(['user_id', 'pay_key'])
    .unique()
    .execute()
  await db.schema
    .createIndex('orders_project_page_index')
    .on('orders')
    .columns(['project_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('orders_user_page_index')
    .on('orders')
    .columns(['user_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('order_lines')
    .addColumn('order_id', 'text', (column) =>
      column.notNull().references('orders.id').onDelete('cascade'),
    )
    .addColumn('line_no', 'integer', (column) => column.notNull())
    .addColumn('line_id', 'text', (column) => column.notNull())
    .addColumn('item_id', 'text', (column) => column.notNull())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('names_json', 'text', (column) => column.notNull())
    .addColumn('unit', 'text', (column) => column.notNull())
    .addColumn('count', 'bigint', (column) => column.notNull())
    .addColumn('price', 'bigint', (column) => column.notNull())
    .addColumn('amount', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('order_lines_key', ['order_id', 'line_no'])
    .addCheckConstraint('order_lines_amount_check', sql`amount >= 0 and count >= 0`)
    .execute()

  await db.schema
    .createTable('recharges')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('code', 'text', (column) => column.notNull().unique())
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('method', 'text', (column) => column.notNull())
    .addColumn('amount', 'bigint', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('payer_name', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('bank_reference', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('idempotency_key', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('confirmed_by', 'text')
    .addColumn('cancelled_at', 'text')
    .addCheckConstraint('recharges_amount_check', sql`amount > 0`)
    .addCheckConstraint(
      'recharges_state_check',
      sql`state in ('pending', 'confirmed', 'cancelled') and method in ('online', 'bank')`,
    )
    .execute()
  await db.schema
    .createIndex('recharges_key_unique')
    .on('recharges')
    .columns(['user_id', 'idempotency_key'])
    .unique()
    .execute()
  await db.schema
    .createIndex('recharges_user_page_index')
    .on('recharges')
    .columns(['user_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('recharges_state_page_index')
    .on('recharges')
    .columns(['state', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('user_id', 'text', (column) => column.unique())
    .addColumn('balance', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addCheckConstraint(
      'ledger_accounts_balance_check',
      sql`kind in ('user', 'revenue', 'funding') and (kind <> 'user' or balance >= 0)`,
    )
    .execute()

  await db.schema
    .createTable('ledger_movements')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('reference_id', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('ledger_movements_reference_unique', ['kind', 'reference_id'])
    .addCheckConstraint('ledger_movements_kind_check', sql`kind in ('payment', 'recharge')`)
    .execute()

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('movement_id', 'text', (column) =>
      column.notNull().references('ledger_movements.id'),
    )
    .addColumn('account_id', 'text', (column) => column.notNull().references('ledger_accounts.id'))
    .addColumn('amount', 'bigint', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addCheckConstraint('ledger_entries_amount_check', sql`amount <> 0`)
    .execute()
  await db.schema
    .createIndex('ledger_entries_account_index')
    .on('ledger_entries')
    .columns(['account_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('ledger_entries_movement_index')
    .on('ledger_entries')
    .column('movement_id')
    .execute()

  // append-only: a change or a removal of history is refused by the database itself
  if (isPostgres) {
    await sql`create function ledger_append_only() returns trigger language plpgsql as $$
      begin raise exception 'the ledger is append-only'; end $$`.execute(db)
  }
  for (const table of appendOnlyTables) {
    for (const operation of ['update', 'delete'] as const) {
      const name = sql.raw(`${table}_no_${operation}`)
      const verb = sql.raw(operation)
      const target = sql.raw(table)
      if (isPostgres) {
        await sql`create trigger ${name} before ${verb} on ${target}
          for each row execute function ledger_append_only()`.execute(db)
      } else {
        await sql`create trigger ${name} before ${verb} on ${target}
          begin select raise(abort, 'the ledger is append-only'); end`.execute(db)
      }
    }
  }
}

/** Drops the tables (and with them the triggers). */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'ledger_entries',
    'ledger_movements',
    'ledger_accounts',
    'recharges',
    'order_lines',
    'orders',
    'shopping_lines',
    'price_items',
  ]) {
    await db.schema.dropTable(table).execute()
  }
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop function if exists ledger_append_only()`.execute(db)
  }
}
