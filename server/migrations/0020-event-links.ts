import type { Kysely } from 'kysely'

/**
 * Event linkage (issue 17 item 6; SPEC §3 "POI linkage record", §7 `/eventlink/*`): when a
 * source POI's event (link, alarm, offline, fault) fires, its linked targets react — a POI (a
 * camera opens its video) or an area (it is highlighted). One row per source, event and target;
 * the same link twice is refused ('Already linked.') by the unique index as well as the service.
 */
export interface EventLinkTables {
  event_links: EventLinksTable
}

/** One linkage: the source POI's event reaches one target. */
export interface EventLinksTable {
  id: string
  project_id: string
  source_poi_id: string
  /** 'link', 'alarm', 'offline' or 'fault' (contract/event-links.ts). */
  event: string
  /** 'poi' or 'area'. */
  target_kind: string
  /** A POI id or an `area_draws` id. */
  target_id: string
  created_at: string
}

/** Creates the linkage table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_links')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('source_poi_id', 'text', (column) => column.notNull())
    .addColumn('event', 'text', (column) => column.notNull())
    .addColumn('target_kind', 'text', (column) => column.notNull())
    .addColumn('target_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('event_links_unique_index')
    .on('event_links')
    .columns(['source_poi_id', 'event', 'target_kind', 'target_id'])
    .unique()
    .execute()
  await db.schema
    .createIndex('event_links_project_index')
    .on('event_links')
    .column('project_id')
    .execute()
}

/** Drops it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_links').execute()
}
