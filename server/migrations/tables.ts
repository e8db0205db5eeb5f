import type { Generated } from 'kysely'
import type { BuildingTables } from './0004-building-models'
import type { GmlTables } from './0005-uploads-and-gml'
import type { CityTables } from './0006-city'
import type { PoiTemplateTables } from './0007-poi-templates'
import type { TemplateFileTables } from './0009-template-files'
import type { PoiTables } from './0011-pois'
import type { DrawTables } from './0014-draw'
import type { IotTables } from './0015-iot'
import type { TrackingTables } from './0018-tracking'
import type { FileReplacementTables } from './0019-file-replacements'
import type { EventLinkTables } from './0020-event-links'
import type { InvestigationTables } from './0023-investigations'
import type { OrderTables } from './0012-orders'
import type { StyleTables } from './0013-style'
import type { OfflinePackageTables } from './0016-offline-packages'
import type { CaptureTables } from './0017-captures'
import type { ProjectTables } from './projects-tables'
import type { ModelConfigTables } from './0021-model-config'
import type { MaterialTables } from './0024-materials'
import type { CaseTables } from './0025-cases'
import type { AnchorAndTourTables } from './0026-anchors-and-tours'
import type { CityModelTables } from './0028-city-models'
import type { ModelDocumentTables } from './0032-model-documents'
import type { StructureJobTables } from './0033-structure-jobs'
import type { ServerKeyTables } from './0037-server-keys'

/**
 * Row types of every table, for Kysely. A migration that adds or changes a table updates its
 * row type here in the same change.
 *
 * Conventions (both dialects):
 * - ids are text UUIDs (`crypto.randomUUID()`), made by the server, never by the database;
 * - timestamps are ISO 8601 UTC text of fixed width (`Date.prototype.toISOString()`), so they
 *   sort and compare as text in SQLite and PostgreSQL alike;
 * - booleans are integers 0/1 (SQLite has no boolean type);
 * - calendar dates are `YYYY-MM-DD` text.
 */
export interface Tables
  extends ProjectTables,
    BuildingTables,
    GmlTables,
    CityTables,
    // 0011 extends the `pois` of 0007: its row type replaces 0007's
    Omit<PoiTemplateTables, 'pois'>,
    TemplateFileTables,
    PoiTables,
    DrawTables,
    IotTables,
    TrackingTables,
    FileReplacementTables,
    EventLinkTables,
    InvestigationTables,
    OrderTables,
    StyleTables,
    OfflinePackageTables,
    ModelConfigTables,
    MaterialTables,
    CaseTables,
    AnchorAndTourTables,
    CityModelTables,
    ModelDocumentTables,
    StructureJobTables,
    ServerKeyTables,
    CaptureTables {
  users: UsersTable
  sessions: SessionsTable
  notices: NoticesTable
  notice_reads: NoticeReadsTable
  outbox: OutboxTable
  verification_codes: VerificationCodesTable
  rate_limit_events: RateLimitEventsTable
  sign_in_lockouts: SignInLockoutsTable
  session_tickets: SessionTicketsTable
  roles: RolesTable
  user_roles: UserRolesTable
}

/** Accounts (SPEC §3 "User"). `name`, `tel` and `email` are unique; tel and email may be null. */
export interface UsersTable {
  id: string
  name: string
  nickname: string | null
  sex: string | null
  tel: string | null
  email: string | null
  birthday: string | null
  job_title: string | null
  company: string | null
  avatar: string | null
  /** scrypt hash with its parameters (server/modules/passwords.ts). */
  password_hash: string
  role: 'admin' | 'editor' | 'guest'
  /** 1 when the account may not sign in. */
  disabled: Generated<number>
  created_at: string
  updated_at: string
}

/** Sign-in sessions. Only the SHA-256 of a token is stored, so a database leak holds no token. */
export interface SessionsTable {
  id: string
  user_id: string
  token_hash: string
  kind: 'user' | 'guest'
  created_at: string
  last_seen_at: string
  /** The absolute end of the session, however active it is. */
  expires_at: string
  revoked_at: string | null
}

/** Announcements written by an admin. */
export interface NoticesTable {
  id: string
  title: string
  body: string
  author_id: string
  created_at: string
}

/** Which user has read which notice. */
export interface NoticeReadsTable {
  notice_id: string
  user_id: string
  read_at: string
}

/** Messages of the default local provider (server/modules/messaging/), newest last. */
export interface OutboxTable {
  id: string
  channel: 'sms' | 'email'
  /** A phone number or an e-mail address. */
  recipient: string
  subject: string | null
  text: string
  created_at: string
}

/** Sign-up and password-reset codes. Only a hash of the code is kept. */
export interface VerificationCodesTable {
  id: string
  channel: 'sms' | 'email'
  recipient: string
  /** 'change': a new phone or e-mail of an account (0031). */
  purpose: 'register' | 'forget' | 'change'
  /** SHA-256 of `<id>:<code>`, hex. */
  code_hash: string
  /** Wrong entries so far (a check in progress counts until it proves right). */
  tries: Generated<number>
  created_at: string
  expires_at: string
  consumed_at: string | null
}

/** One counted action of a rate limit (e.g. `sms:ip:<address>`), for sliding hourly windows. */
export interface RateLimitEventsTable {
  id: string
  bucket: string
  created_at: string
}

/** Failed sign-ins of one account name since its last success, and its lock. */
export interface SignInLockoutsTable {
  /** The name typed at sign-in (existing or not, so probing names looks the same). */
  account_key: string
  failure_count: number
  last_failure_at: string
  locked_until: string | null
}

/** One-time tickets exchanged for a token of the session that issued them. */
export interface SessionTicketsTable {
  id: string
  /** SHA-256 of the ticket, hex. */
  ticket_hash: string
  session_id: string
  created_at: string
  expires_at: string
  used_at: string | null
}

/** Roles as data (contract/role.ts). */
export interface RolesTable {
  id: string
  name: string
  description: string | null
  /** The level the server enforces; `users.role` of every holder equals it. */
  access_level: 'admin' | 'editor' | 'guest'
  /** JSON array of menu keys. */
  menu_keys: string
  is_builtin: Generated<number>
  created_at: string
  updated_at: string
}

/** A user's role when it is not the built-in role of their level. */
export interface UserRolesTable {
  user_id: string
  role_id: string
  assigned_at: string
}
