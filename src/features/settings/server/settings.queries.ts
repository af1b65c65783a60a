import { eq } from 'drizzle-orm';
import { record } from '@/features/audit/server/audit.queries';
import type { RequestContext } from '@/server/context';
import type { Db, Tx } from '@/server/db/types';
import { DEFAULT_PRACTICE_HOURS, practiceHoursSchema, type PracticeHours } from '../practice.schema';
import { DEFAULT_USER_SETTINGS, fontSizeSchema, type UserSettings, type UserSettingsPatch } from '../settings.schema';
import { practiceSettings, userSettings } from './settings.table';

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
      actor: ctx.user.email,
      actorUserId: ctx.user.id,
      actorRole: ctx.user.role,
      action: 'settings.update',
      resource: 'user_settings',
      detail: Object.entries(patch)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', '),
      at: ctx.now,
    });
    if (!row) throw new Error('settings upsert returned nothing');
    return toSettings(row);
  });
}

/** The settings row of a newly created user (self-registration), inside the caller's transaction. */
export async function createDefaultUserSettings(tx: Tx, userId: number): Promise<void> {
  await tx.insert(userSettings).values({ userId, ...DEFAULT_USER_SETTINGS });
}

export async function getPracticeHours(db: Db | Tx): Promise<PracticeHours> {
  const [row] = await db.select().from(practiceSettings).where(eq(practiceSettings.practiceId, 1)).limit(1);
  if (!row) return DEFAULT_PRACTICE_HOURS;
  return practiceHoursSchema.parse({
    appointmentMinutes: row.appointmentMinutes,
    bufferMinutes: row.bufferMinutes,
    workdayStart: row.workdayStart,
    workdayEnd: row.workdayEnd,
    workingDays: row.workingDays,
  });
}
