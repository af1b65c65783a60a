import { z } from 'zod';

export const ENCOUNTER_TYPES = [
  'Office Visit',
  'New Patient',
  'Annual Wellness',
  'Telehealth',
  'Urgent Visit',
] as const;
export const encounterTypeSchema = z.enum(ENCOUNTER_TYPES);
