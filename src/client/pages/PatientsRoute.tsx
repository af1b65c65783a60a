import { can, type Role } from '@/shared/access';
import { PatientCoverageSection } from '@/features/coverage/ui/PatientCoverageSection';
import PatientsPage from '@/features/patients/ui/PatientsPage';

/**
 * '/patients': the patients feature's list and snapshot, with the patient's insurance (the coverage feature)
 * assembled into the snapshot for the roles that may read it.
 */
export default function PatientsRoute({ role }: { role: Role }) {
  return (
    <PatientsPage
      role={role}
      snapshotSections={
        can(role, 'coverage:read')
          ? (patientId) => <PatientCoverageSection patientId={patientId} role={role} />
          : undefined
      }
    />
  );
}
