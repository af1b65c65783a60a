import { SearchCombobox } from '@/client/components/ui/search-combobox';
import { patientOptionDetail } from '@/features/patients/patients.schema';
import { usePatientNames, type PatientName } from './appointments.api';

/** The booking dialog's patient picker: each name with its date of birth and MRN, as the role may see them. */
export function PatientPicker({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: PatientName | null;
  onChange: (patient: PatientName | null) => void;
  error?: string;
}) {
  return (
    <SearchCombobox
      id={id}
      value={value}
      onChange={onChange}
      useOptions={usePatientNames}
      placeholder="Search patients by name"
      listLabel="Patients"
      emptyText="No patients found"
      error={error}
      describe={patientOptionDetail}
    />
  );
}
