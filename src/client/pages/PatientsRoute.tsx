import { can, type Role } from '@/shared/access';
import { PatientClaimsSection } from '@/features/claims/ui/PatientClaimsSection';
import { PatientCoverageSection } from '@/features/coverage/ui/PatientCoverageSection';
import PatientsPage from '@/features/patients/ui/PatientsPage';

/**
 * '/patients': the patients feature's list and snapshot, with the patient's insurance (the coverage feature)
 * and claims (the claims feature) assembled into the snapshot for the roles that may read them.
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
                {insurance && <PatientCoverageSection patientId={patientId} role={role} />}
                {claims && <PatientClaimsSection patientId={patientId} role={role} />}
              </>
            )
          : undefined
      }
    />
  );
}
