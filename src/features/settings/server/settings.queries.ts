import { eq, sql, type SQL } from 'drizzle-orm';
import { can } from '@/shared/access';
import { actorOf, record } from '@/features/audit/server/audit.queries';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import {
  DEFAULT_PRACTICE_HOURS,
  practiceHoursSchema,
  sortWeekdays,
  type BillingIdentity,
  type BillingIdentityUpdate,
  type Clearinghouse,
  type ClearinghouseUpdate,
  type PracticeHours,
  type PracticeHoursUpdate,
  type PracticeLetterhead,
} from '../practice.schema';
import {
  DEFAULT_INTEGRATIONS,
  DEFAULT_NOTIFICATIONS,
  DEFAULT_USER_SETTINGS,
  fontSizeSchema,
  integrationName,
  integrationsSchema,
  notificationSettingsSchema,
  type IntegrationKey,
  type Integrations,
  type NotificationSettings,
  type NotificationsResponse,
  type UserSettings,
  type UserSettingsPatch,
} from '../settings.schema';
import { practiceSettings, userSettings } from './settings.table';
import type { PracticeTimeZone, PracticeTimeZoneUpdate } from '../practice-zone.schema';
import { dayInZone, isTimeZone, processTimeZone, setPracticeTimeZone } from '@/shared/practice-zone';

function toSettings(row: typeof userSettings.$inferSelect): UserSettings {
  return {
    id: row.userId,
    highContrast: row.highContrast,
    fontSize: fontSizeSchema.parse(row.fontSize),
    mfaEnabled: row.mfaEnabled,
  };
}

export async function getUserSettings(db: Db, ctx: RequestContext): Promise<UserSettings> {
  const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, ctx.user.id)).limit(1);
  return row ? toSettings(row) : { id: ctx.user.id, ...DEFAULT_USER_SETTINGS };
}

export async function updateUserSettings(db: Db, ctx: RequestContext, patch: UserSettingsPatch): Promise<UserSettings> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(userSettings)
      .values({ userId: ctx.user.id, ...DEFAULT_USER_SETTINGS, ...patch })
      .onConflictDoUpdate({ target: userSettings.userId, set: patch })
      .returning();
    await record(tx, {
      ...actorOf(ctx),
      action: 'settings.update',
      resource: 'user_settings',
      detail: Object.entries(patch)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', '),
    });
    if (!row) throw new Error('settings upsert returned nothing');
    return toSettings(row);
  });
}

/** The settings row of a newly created user (self-registration), inside the caller's transaction. */
export async function createDefaultUserSettings(tx: Tx, userId: number): Promise<void> {
  await tx.insert(userSettings).values({ userId, ...DEFAULT_USER_SETTINGS });
}

/** This deployment runs one practice (practice_settings has one row per practice). */
const PRACTICE_ID = 1;

async function practiceRow(db: Db | Tx, forUpdate = false) {
  const query = db.select().from(practiceSettings).where(eq(practiceSettings.practiceId, PRACTICE_ID)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/**
 * The practice's letterhead for statements as a JSON object (null while the practice has no settings row yet:
 * the reader then prints DEFAULT_PRACTICE_LETTERHEAD), as a scalar subquery for a reader that gathers it with
 * its own rows in one statement (a billing statement).
 */
export function practiceLetterheadSql(): SQL<PracticeLetterhead | null> {
  return sql`(select json_build_object('name', ${practiceSettings.name}, 'address', ${practiceSettings.address},
    'phone', ${practiceSettings.phone}) from ${practiceSettings} where ${practiceSettings.practiceId} = ${sql.raw(String(PRACTICE_ID))})`;
}

/** The practice's row, created with the defaults if it is missing, locked for this transaction. */
async function lockedPracticeRow(tx: Tx) {
  await tx
    .insert(practiceSettings)
    .values({ practiceId: PRACTICE_ID, notifications: DEFAULT_NOTIFICATIONS, integrations: DEFAULT_INTEGRATIONS })
    .onConflictDoNothing();
  const row = await practiceRow(tx, true);
  if (!row) throw new Error('practice settings row missing after insert');
  return row;
}

function describeHours(h: PracticeHours): string {
  return `${h.appointmentMinutes} min visits, ${h.bufferMinutes} min buffer, ${h.workdayStart}-${h.workdayEnd}, ${h.workingDays.join('/')}`;
}

/**
 * The practice's hours as a JSON object (null while the practice has no settings row yet), as a scalar
 * subquery for a reader that gathers them with its own rows in one statement (a booking's locks); read it
 * back with practiceHoursOf.
 */
export function practiceHoursSql(): SQL<unknown> {
  const p = practiceSettings;
  return sql`(select json_build_object('appointmentMinutes', ${p.appointmentMinutes}, 'bufferMinutes',
    ${p.bufferMinutes}, 'workdayStart', ${p.workdayStart}, 'workdayEnd', ${p.workdayEnd}, 'workingDays',
    ${p.workingDays}) from ${p} where ${p.practiceId} = ${sql.raw(String(PRACTICE_ID))})`;
}

/** practiceHoursSql's value as getPracticeHours gives it: the defaults while there is no settings row. */
export function practiceHoursOf(value: unknown): PracticeHours {
  return value === null || value === undefined ? DEFAULT_PRACTICE_HOURS : practiceHoursSchema.parse(value);
}

export async function getPracticeHours(db: Db | Tx): Promise<PracticeHours> {
  const row = await practiceRow(db);
  if (!row) return DEFAULT_PRACTICE_HOURS;
  return practiceHoursSchema.parse({
    appointmentMinutes: row.appointmentMinutes,
    bufferMinutes: row.bufferMinutes,
    workdayStart: row.workdayStart,
    workdayEnd: row.workdayEnd,
    workingDays: row.workingDays,
  });
}

/** Saves the Practice tab; the audit entry says what it was and what it became. */
export async function updatePracticeHours(
  db: Db,
  ctx: RequestContext,
  input: PracticeHoursUpdate,
): Promise<PracticeHours> {
  const next: PracticeHours = { ...input, workingDays: sortWeekdays(input.workingDays) };
  return db.transaction(async (tx) => {
    await lockedPracticeRow(tx);
    const before = await getPracticeHours(tx);
    await tx
      .update(practiceSettings)
      .set({
        appointmentMinutes: next.appointmentMinutes,
        bufferMinutes: next.bufferMinutes,
        workdayStart: next.workdayStart,
        workdayEnd: next.workdayEnd,
        workingDays: next.workingDays,
      })
      .where(eq(practiceSettings.practiceId, PRACTICE_ID));
    await record(tx, {
      ...actorOf(ctx),
      action: 'settings.practice.update',
      resource: `practice/${PRACTICE_ID}`,
      detail: `${describeHours(before)} -> ${describeHours(next)}`,
    });
    return next;
  });
}

/** Stored JSON from older rows may lack keys: whatever is missing or unreadable takes the default. */
function readNotifications(value: unknown): NotificationSettings {
  const parsed = notificationSettingsSchema.safeParse({ ...DEFAULT_NOTIFICATIONS, ...(value as object | null) });
  return parsed.success ? parsed.data : DEFAULT_NOTIFICATIONS;
}

function readIntegrations(value: unknown): Integrations {
  const parsed = integrationsSchema.safeParse({ ...DEFAULT_INTEGRATIONS, ...(value as object | null) });
  return parsed.success ? parsed.data : DEFAULT_INTEGRATIONS;
}

function describeNotifications(n: NotificationSettings): string {
  const onOff = (v: boolean) => (v ? 'on' : 'off');
  return `email ${onOff(n.email)} (${n.emailReminderHours} h), SMS ${onOff(n.sms)} (${n.smsReminderHours} h), push ${onOff(n.push)}`;
}

/**
 * Staff who may change practice settings see and edit the practice's notification settings; a patient or
 * guest (whose Settings show this tab too) sees and edits their own preferences only.
 */
function notificationScope(ctx: RequestContext): NotificationsResponse['scope'] {
  return can(ctx.user.role, 'settings:practice') ? 'practice' : 'personal';
}

export async function getNotifications(db: Db, ctx: RequestContext): Promise<NotificationsResponse> {
  const scope = notificationScope(ctx);
  if (scope === 'practice') {
    const row = await practiceRow(db);
    return { scope, settings: readNotifications(row?.notifications) };
  }
  const [row] = await db
    .select({ notifications: userSettings.notifications })
    .from(userSettings)
    .where(eq(userSettings.userId, ctx.user.id))
    .limit(1);
  return { scope, settings: readNotifications(row?.notifications) };
}

export async function updateNotifications(
  db: Db,
  ctx: RequestContext,
  input: NotificationSettings,
): Promise<NotificationsResponse> {
  const scope = notificationScope(ctx);
  return db.transaction(async (tx) => {
    let before: NotificationSettings;
    if (scope === 'practice') {
      before = readNotifications((await lockedPracticeRow(tx)).notifications);
      await tx
        .update(practiceSettings)
        .set({ notifications: input })
        .where(eq(practiceSettings.practiceId, PRACTICE_ID));
    } else {
      const [row] = await tx
        .select({ notifications: userSettings.notifications })
        .from(userSettings)
        .where(eq(userSettings.userId, ctx.user.id))
        .limit(1)
        .for('update');
      before = readNotifications(row?.notifications);
      await tx
        .insert(userSettings)
        .values({ userId: ctx.user.id, ...DEFAULT_USER_SETTINGS, notifications: input })
        .onConflictDoUpdate({ target: userSettings.userId, set: { notifications: input } });
    }
    await record(tx, {
      ...actorOf(ctx),
      action: scope === 'practice' ? 'settings.notifications.update' : 'settings.update',
      resource: scope === 'practice' ? `practice/${PRACTICE_ID}` : 'user_settings',
      detail: `notifications: ${describeNotifications(before)} -> ${describeNotifications(input)}`,
    });
    return { scope, settings: input };
  });
}

export async function getIntegrations(db: Db): Promise<Integrations> {
  return readIntegrations((await practiceRow(db))?.integrations);
}

/** Connects or disconnects one integration of the practice. */
export async function setIntegration(
  db: Db,
  ctx: RequestContext,
  key: IntegrationKey,
  connected: boolean,
): Promise<Integrations> {
  return db.transaction(async (tx) => {
    const current = readIntegrations((await lockedPracticeRow(tx)).integrations);
    const next = { ...current, [key]: connected };
    await tx.update(practiceSettings).set({ integrations: next }).where(eq(practiceSettings.practiceId, PRACTICE_ID));
    await record(tx, {
      ...actorOf(ctx),
      action: 'settings.integrations.update',
      resource: `practice/${PRACTICE_ID}`,
      detail: `${integrationName(key)}: ${current[key] ? 'connected' : 'disconnected'} -> ${connected ? 'connected' : 'disconnected'}`,
    });
    return next;
  });
}

/** The zone the practice chose in Settings, or null for the server's own (the default). */
export async function getChosenPracticeTimeZone(db: Db | Tx): Promise<string | null> {
  const row = await practiceRow(db);
  return row?.timeZone && isTimeZone(row.timeZone) ? row.timeZone : null;
}

/** The practice's zone as the server applies it now. */
export async function getPracticeTimeZone(db: Db, now: Date): Promise<PracticeTimeZone> {
  const chosen = await getChosenPracticeTimeZone(db);
  const timeZone = chosen ?? processTimeZone();
  return { timeZone, chosen: chosen !== null, today: dayInZone(now, timeZone) };
}

/**
 * Changes the practice's zone, audited, and applies it to this server at once; other app servers apply it
 * when they hear of the change (practice-zone.sync.ts).
 */
export async function updatePracticeTimeZone(
  db: Db,
  ctx: RequestContext,
  input: PracticeTimeZoneUpdate,
): Promise<PracticeTimeZone> {
  await db.transaction(async (tx) => {
    await lockedPracticeRow(tx);
    const before = (await getChosenPracticeTimeZone(tx)) ?? `${processTimeZone()} (the server's)`;
    await tx
      .update(practiceSettings)
      .set({ timeZone: input.timeZone })
      .where(eq(practiceSettings.practiceId, PRACTICE_ID));
    await record(tx, {
      ...actorOf(ctx),
      action: 'settings.practice_time_zone.update',
      resource: `practice/${PRACTICE_ID}`,
      detail: `${before} -> ${input.timeZone}`,
    });
  });
  setPracticeTimeZone(input.timeZone);
  return { timeZone: input.timeZone, chosen: true, today: dayInZone(ctx.now, input.timeZone) };
}

/** What each billing identity field is called in an audit entry, in the order the card shows them. */
const BILLING_IDENTITY_FIELDS: { key: keyof BillingIdentity; label: string; quoted: boolean }[] = [
  { key: 'billingName', label: 'legal name', quoted: true },
  { key: 'billingNpi', label: 'billing NPI', quoted: false },
  { key: 'taxId', label: 'tax id', quoted: false },
  { key: 'taxonomyCode', label: 'taxonomy', quoted: false },
  { key: 'billingAddressLine1', label: 'address', quoted: true },
  { key: 'billingCity', label: 'city', quoted: true },
  { key: 'billingState', label: 'state', quoted: false },
  { key: 'billingZip', label: 'ZIP', quoted: false },
];

function toBillingIdentity(row: typeof practiceSettings.$inferSelect | null): BillingIdentity {
  return {
    billingName: row?.billingName ?? null,
    billingNpi: row?.billingNpi ?? null,
    taxId: row?.taxId ?? null,
    taxonomyCode: row?.taxonomyCode ?? null,
    billingAddressLine1: row?.billingAddressLine1 ?? null,
    billingCity: row?.billingCity ?? null,
    billingState: row?.billingState ?? null,
    billingZip: row?.billingZip ?? null,
  };
}

/** "billing NPI 1234567893 -> 1667788990; city (none) -> "Springfield"": the fields that changed, or "no change". */
function describeBillingIdentityChange(before: BillingIdentity, after: BillingIdentity): string {
  const show = (value: string | null, quoted: boolean) =>
    value === null ? '(none)' : quoted ? JSON.stringify(value) : value;
  const changes = BILLING_IDENTITY_FIELDS.filter(({ key }) => before[key] !== after[key]).map(
    ({ key, label, quoted }) => `${label} ${show(before[key], quoted)} -> ${show(after[key], quoted)}`,
  );
  return changes.length > 0 ? changes.join('; ') : 'no change';
}

/** The practice as the billing provider of its claims (X12 837P loop 2010AA); all null until entered. */
export async function getBillingIdentity(db: Db | Tx): Promise<BillingIdentity> {
  return toBillingIdentity(await practiceRow(db));
}

/** Saves the practice's billing identity; the audit entry names each field that changed, before and after. */
export async function updateBillingIdentity(
  db: Db,
  ctx: RequestContext,
  value: BillingIdentityUpdate,
): Promise<BillingIdentity> {
  return db.transaction(async (tx) => {
    const before = toBillingIdentity(await lockedPracticeRow(tx));
    const [row] = await tx
      .update(practiceSettings)
      .set(value)
      .where(eq(practiceSettings.practiceId, PRACTICE_ID))
      .returning();
    const after = toBillingIdentity(row ?? null);
    await record(tx, {
      ...actorOf(ctx),
      action: 'settings.billing_identity.update',
      resource: `practice/${PRACTICE_ID}`,
      detail: describeBillingIdentityChange(before, after),
    });
    return after;
  });
}

function toClearinghouse(row: typeof practiceSettings.$inferSelect | null): Clearinghouse {
  return {
    ediReceiverName: row?.ediReceiverName ?? null,
    ediReceiverId: row?.ediReceiverId ?? null,
    ediSubmitterId: row?.ediSubmitterId ?? null,
    ediUsage: row?.ediUsage === 'P' ? 'P' : 'T',
  };
}

/** The clearinghouse the practice's 837P files go to (docs/x12-837.md). */
export async function getClearinghouse(db: Db | Tx): Promise<Clearinghouse> {
  return toClearinghouse(await practiceRow(db));
}

/** Saves the clearinghouse; the audit entry names what changed, before and after. */
export async function updateClearinghouse(
  db: Db,
  ctx: RequestContext,
  value: ClearinghouseUpdate,
): Promise<Clearinghouse> {
  return db.transaction(async (tx) => {
    const before = toClearinghouse(await lockedPracticeRow(tx));
    const [row] = await tx
      .update(practiceSettings)
      .set(value)
      .where(eq(practiceSettings.practiceId, PRACTICE_ID))
      .returning();
    const after = toClearinghouse(row ?? null);
    const labels: Record<keyof Clearinghouse, string> = {
      ediReceiverName: 'clearinghouse',
      ediReceiverId: 'clearinghouse id',
      ediSubmitterId: 'submitter id',
      ediUsage: 'usage',
    };
    const changes = (Object.keys(labels) as (keyof Clearinghouse)[])
      .filter((key) => before[key] !== after[key])
      .map((key) => `${labels[key]} ${before[key] ?? '(none)'} -> ${after[key] ?? '(none)'}`);
    await record(tx, {
      ...actorOf(ctx),
      action: 'settings.clearinghouse.update',
      resource: `practice/${PRACTICE_ID}`,
      detail: changes.length > 0 ? changes.join('; ') : 'no change',
    });
    return after;
  });
}
