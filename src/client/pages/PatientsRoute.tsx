import { can, type Role } from '@/shared/access';
import { PatientClaimsSection } from '@/features/claims/ui/PatientClaimsSection';
import { PatientCoverageSection } from '@/features/coverage/ui/PatientCoverageSection';
import { PatientBillingDetailsSection } from '@/features/patients/ui/PatientBillingDetailsSection';
import PatientsPage from '@/features/patients/ui/PatientsPage';

/**
 * '/patients': the patients feature's list and snapshot, with the patient's billing details, insurance (the
 * coverage feature) and claims (the claims feature) assembled into the snapshot for the roles that may read
 * them. The billing details go with insurance: the same roles read and register both for a claim.
 */
export default function PatientsRoute({ role }: { role: Role }) {
  const insurance = can(role, 'coverage:read');
  const claims = can(role, 'claims:read');
  return (
    <PatientsPage
      role={role}
      snapshotSections={
        insurance || claims
          ? (patientId) => (
              <>
                {insurance && <PatientBillingDetailsSection patientId={patientId} role={role} />}
                {insurance && <PatientCoverageSection patientId={patientId} role={role} />}
                {claims && <PatientClaimsSection patientId={patientId} role={role} />}
              </>
            )
          : undefined
      }
    />
  );
}
