import type { z } from 'zod';

/** The reason a claim action's schema accepts (trimmed), or the schema's first message: ClaimReasonDialog's check. */
export function reasonChecker(schema: z.ZodType<{ reason: string }, unknown>) {
  return (reason: string): { ok: true; reason: string } | { ok: false; message: string | undefined } => {
    const checked = schema.safeParse({ reason });
    return checked.success
      ? { ok: true, reason: checked.data.reason }
      : { ok: false, message: checked.error.issues[0]?.message };
  };
}
