import { useAuditHmacKey } from '@/features/audit/server/audit.queries';

/** The tests' audit HMAC key: the same one global-setup seeds the template with, so its chain verifies. */
export const TEST_AUDIT_HMAC_KEY = Buffer.from('test-only audit hmac key, not a secret', 'utf8');

useAuditHmacKey(TEST_AUDIT_HMAC_KEY);
