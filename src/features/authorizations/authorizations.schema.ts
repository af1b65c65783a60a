import { z } from 'zod';

export const AUTHORIZATION_STATUSES = ['Pending', 'Approved', 'Denied'] as const;
export const authorizationStatusSchema = z.enum(AUTHORIZATION_STATUSES);
