import { crossFeatureKeys } from '@/client/lib/cross-feature-keys';

// Adding a patient refreshes the dashboard's count: that key is one of the shell's cross-feature keys.
export const dashboardKeys = {
  summary: crossFeatureKeys.dashboardSummary,
};
