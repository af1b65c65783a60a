import { hostname } from 'node:os';
import type { Role } from '@/shared/access';
import type { ChangeFeed } from './db/change-feed';
import type { Db, Tx } from './db/types';
import type { RequestClient } from './request-client';

export interface AuthUser {
  id: number;
  email: string;
  name: string;
  role: Role;
  patientId: number | null;
}

/** What the server knows of the caller, from the session only (never from request headers). */
export interface AuthContext {
  user: AuthUser;
  sessionIdHash: string;
  csrfToken: string;
  expiresAt: Date;
  /** Signed in with a temporary password: nothing but setting a new one is allowed until it is changed. */
  passwordChangeRequired?: boolean;
}

export interface AppConfig {
  /** In demo mode the one-time code is shown on screen; otherwise TOTP is used. */
  demoMode: boolean;
  /** Set when served over HTTPS (directly or behind a TLS-terminating proxy): cookies get Secure, HSTS is sent. */
  secureCookies: boolean;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  /** Built client to serve; absent in API-only test apps. */
  clientDir?: string;
  /** Sign-in rate limit per client address and per account (per minute). */
  loginRateLimitPerMinute: number;
  /** AES-256-GCM key for the stored TOTP secrets (MFA_ENCRYPTION_KEY or the per-install key file). */
  mfaEncryptionKey?: Buffer;
  /** The names this server answers to (Host and Origin, any port), lower-cased; IPv6 in brackets. */
  allowedHosts: readonly string[];
}

/** The machine's own names and loopback: a server reached by another name answers 421 (ALLOWED_HOSTS). */
export function defaultAllowedHosts(machineName: string = hostname()): string[] {
  const name = machineName.toLowerCase();
  const shortName = name.split('.')[0] ?? name;
  return [...new Set(['localhost', '127.0.0.1', '[::1]', name, shortName].filter((n) => n !== ''))];
}

export const DEFAULT_CONFIG: AppConfig = {
  demoMode: true,
  secureCookies: false,
  sessionIdleMinutes: 15,
  sessionAbsoluteHours: 12,
  loginRateLimitPerMinute: 20,
  allowedHosts: defaultAllowedHosts(),
};

export interface AppDeps {
  db: Db;
  /** Injected so tests can move time (lockouts, session expiry) without waiting. */
  clock: () => Date;
  config: AppConfig;
  /**
   * Committed changes heard from the database (db/change-feed.ts). With it the server caches sessions and
   * the answers of routes marked `cacheable` (docs/caching.md); without it (most tests) nothing is cached.
   */
  changes?: ChangeFeed;
}

/** What a queries module receives: who asks, and when. Data scope is applied from it. */
export interface RequestContext {
  user: AuthUser;
  now: Date;
  /** Where the request came from: recorded on every audit entry written for it. Absent outside a request. */
  client?: RequestClient;
  /**
   * The PHI reads audited for this request (recordRead), kept for the answer cache: it appends them again
   * for each later read it serves from memory. Absent where nothing is cached.
   */
  reads?: AuditedRead[];
}

/**
 * What a later feature does, in the same transaction, once what a claim says of a patient changes (their
 * address, sex or coverage): the claims feature scrubs the patient's held claims again. Patients and coverage
 * come before claims in the feature order, so the server passes it to their routes (app.ts).
 */
export type AfterPatientBillingChange = (tx: Tx, ctx: RequestContext, patientId: number) => Promise<void>;

/** An audited read's entry without who and when (audit.queries ReadEntry). */
export interface AuditedRead {
  action: string;
  resource: string;
  detail: string;
  patientId: number | null;
}
