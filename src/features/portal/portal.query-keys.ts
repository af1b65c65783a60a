import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';

// A payment in My Billing refreshes the portal's claims: those keys are the shell's cross-feature keys.
export const portalKeys = {
  appointments: crossFeatureKeys.portalAppointments,
  claims: crossFeatureKeys.portalClaims,
};
