// At the feature's root, not in ui/: a payment in My Billing refreshes the portal's claims, and a feature
// may import another's root modules but never its ui/ (eslint.config.js).
export const portalKeys = {
  appointments: ['/api/portal/appointments'] as const,
  claims: ['/api/portal/claims'] as const,
};
