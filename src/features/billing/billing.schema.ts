import { z } from 'zod';

export const PAYMENT_SOURCES = ['payer', 'patient', 'guest'] as const;
export const paymentSourceSchema = z.enum(PAYMENT_SOURCES);
