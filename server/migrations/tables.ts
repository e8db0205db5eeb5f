import type { Generated } from 'kysely'

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
export interface Tables {
  users: UsersTable
  sessions: SessionsTable
  notices: NoticesTable
  notice_reads: NoticeReadsTable
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
