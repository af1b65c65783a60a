// At the feature's root, not in ui/: adding a patient refreshes the dashboard's count, and a feature may
// import another's root modules but never its ui/ (eslint.config.js).
export const dashboardKeys = {
  summary: ['/api/dashboard/summary'] as const,
};
