const ANALYTICS_PATH = '/api/claims/analytics';

// At the feature's root, not in ui/: the billing screen reads the same cached answers, and a feature may
// import another's root modules but never its ui/ (eslint.config.js).
export const analyticsKeys = {
  kpis: (periodDays: number) => [ANALYTICS_PATH, 'kpis', periodDays] as const,
  arAging: () => [ANALYTICS_PATH, 'ar-aging'] as const,
  provider: (periodDays: number) => [ANALYTICS_PATH, 'provider', periodDays] as const,
  denialsByReason: (periodDays: number) => [ANALYTICS_PATH, 'denials-by-reason', periodDays] as const,
};
