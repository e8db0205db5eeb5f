import { type Kysely, SqliteAdapter, sql } from 'kysely'

/**
 * IoT devices and telemetry (issue 17, contract/iot.ts): the device registry (a device per POI
 * device code, its access token kept as a SHA-256 only), time series (one row per device and key
 * in `iot_series`, raw points per series, 1-minute and 1-hour rollups updated on ingest), the
 * devices' attributes, and alarm records.
 *
 * Time series rows deviate from the text-UUID convention on purpose: a series is named by an
 * integer (identity in PostgreSQL, rowid in SQLite), so the millions of point rows carry 8 bytes
 * instead of a 36-character device id and a key. Times are epoch milliseconds (`bigint`).
 * An uncleared alarm is unique per device and code (a partial unique index), which is how
 * alarms are deduplicated while active.
 */
export interface IotTables {
  iot_devices: IotDevicesTable
  iot_series: IotSeriesTable
  iot_points: IotPointsTable
  iot_rollups_1m: IotRollupsTable
  iot_rollups_1h: IotRollupsTable
  iot_attributes: IotAttributesTable
  iot_alarms: IotAlarmsTable
}

/** A device of a project, provisioned from a POI (its `devicecode`). */
export interface IotDevicesTable {
  id: string
  project_id: string
  /** The POI it was provisioned from; its status is mirrored into that POI's `state`. */
  poi_id: string | null
  devicecode: string
  name: string
  type: string
  /** SHA-256 (hex) of the access token; null once revoked. */
  token_hash: string | null
  /** The token's last 4 characters, to tell tokens apart in lists. */
  token_hint: string
  token_issued_at: string
  revoked_at: string | null
  /** The last status code (SPEC §3), null before the first. */
  status: number | null
  status_at: string | null
  last_seen_at: string | null
  created_at: string
  updated_at: string
}

/** One key of one device; `last_*` hold its latest point. */
export interface IotSeriesTable {
  id: number
  device_id: string
  key: string
  last_ts: number | string | null
  last_value: number | null
}

/** A raw point (kept for the raw retention, then swept). */
export interface IotPointsTable {
  series_id: number
  ts: number | string
  value: number
}

/** An aggregate of a series over one bucket (a minute or an hour starting at `bucket_ts`). */
export interface IotRollupsTable {
  series_id: number
  bucket_ts: number | string
  count: number | string
  sum: number
  min: number
  max: number
}

/** The latest value of a device attribute, as JSON text. */
export interface IotAttributesTable {
  device_id: string
  key: string
  value_json: string
  updated_at: string
}

/** An alarm record: raised by a status code 3, 11, 31 or 41, then acknowledged and cleared. */
export interface IotAlarmsTable {
  id: string
  project_id: string
  device_id: string
  poi_id: string | null
  devicecode: string
  code: number
  state: 'active' | 'acknowledged' | 'cleared'
  /** 'device' (telemetry or attributes) or 'manual' (`/alarmrecord/add`). */
  source: string
  /** How often the code was reported while this record was uncleared. */
  count: number
  note: string
  raised_at: string
  last_raised_at: string
  acknowledged_at: string | null
  acknowledged_by: string | null
  cleared_at: string | null
  cleared_by: string | null
  created_at: string
  updated_at: string
}

/** Creates the tables and indexes. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const isSqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await db.schema
    .createTable('iot_devices')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('poi_id', 'text')
    .addColumn('devicecode', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('token_hash', 'text')
    .addColumn('token_hint', 'text', (column) => column.notNull())
    .addColumn('token_issued_at', 'text', (column) => column.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('status', 'integer')
    .addColumn('status_at', 'text')
    .addColumn('last_seen_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('iot_devices_code_unique')
    .on('iot_devices')
    .columns(['project_id', 'devicecode'])
    .unique()
    .execute()
  await db.schema
    .createIndex('iot_devices_token_unique')
    .on('iot_devices')
    .column('token_hash')
    .unique()
    .execute()
  await db.schema.createIndex('iot_devices_poi_index').on('iot_devices').column('poi_id').execute()

  await db.schema
    .createTable('iot_series')
    .addColumn('id', 'integer', (column) =>
      isSqlite ? column.primaryKey() : column.primaryKey().generatedByDefaultAsIdentity(),
    )
    .addColumn('device_id', 'text', (column) => column.notNull())
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('last_ts', 'bigint')
    .addColumn('last_value', 'double precision')
    .execute()
  await db.schema
    .createIndex('iot_series_key_unique')
    .on('iot_series')
    .columns(['device_id', 'key'])
    .unique()
    .execute()

  // one row per point, found by series and time: the primary key is the only index
  await db.schema
    .createTable('iot_points')
    .addColumn('series_id', 'integer', (column) => column.notNull())
    .addColumn('ts', 'bigint', (column) => column.notNull())
    .addColumn('value', 'double precision', (column) => column.notNull())
    .addPrimaryKeyConstraint('iot_points_key', ['series_id', 'ts'])
    .$call((builder) => (isSqlite ? builder.modifyEnd(sql`without rowid`) : builder))
    .execute()
  for (const table of ['iot_rollups_1m', 'iot_rollups_1h']) {
    await db.schema
      .createTable(table)
      .addColumn('series_id', 'integer', (column) => column.notNull())
      .addColumn('bucket_ts', 'bigint', (column) => column.notNull())
      .addColumn('count', 'bigint', (column) => column.notNull())
      .addColumn('sum', 'double precision', (column) => column.notNull())
      .addColumn('min', 'double precision', (column) => column.notNull())
      .addColumn('max', 'double precision', (column) => column.notNull())
      .addPrimaryKeyConstraint(`${table}_key`, ['series_id', 'bucket_ts'])
      .$call((builder) => (isSqlite ? builder.modifyEnd(sql`without rowid`) : builder))
      .execute()
  }

  await db.schema
    .createTable('iot_attributes')
    .addColumn('device_id', 'text', (column) => column.notNull())
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('value_json', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('iot_attributes_key', ['device_id', 'key'])
    .execute()

  await db.schema
    .createTable('iot_alarms')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('device_id', 'text', (column) => column.notNull())
    .addColumn('poi_id', 'text')
    .addColumn('devicecode', 'text', (column) => column.notNull())
    .addColumn('code', 'integer', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('count', 'integer', (column) => column.notNull())
    .addColumn('note', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('raised_at', 'text', (column) => column.notNull())
    .addColumn('last_raised_at', 'text', (column) => column.notNull())
    .addColumn('acknowledged_at', 'text')
    .addColumn('acknowledged_by', 'text')
    .addColumn('cleared_at', 'text')
    .addColumn('cleared_by', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  // deduplication: one uncleared record per device and code
  await db.schema
    .createIndex('iot_alarms_open_unique')
    .on('iot_alarms')
    .columns(['device_id', 'code'])
    .unique()
    .where(sql.ref('state'), '<>', 'cleared')
    .execute()
  await db.schema
    .createIndex('iot_alarms_project_index')
    .on('iot_alarms')
    .columns(['project_id', 'raised_at', 'id'])
    .execute()
  await db.schema
    .createIndex('iot_alarms_device_index')
    .on('iot_alarms')
    .column('device_id')
    .execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'iot_alarms',
    'iot_attributes',
    'iot_rollups_1h',
    'iot_rollups_1m',
    'iot_points',
    'iot_series',
    'iot_devices',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
