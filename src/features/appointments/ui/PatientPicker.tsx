import { SearchCombobox } from '@/client/components/ui/search-combobox';
import { usePatientNames, type PatientName } from './appointments.api';

/** The booking dialog's patient picker: only names travel; no other PHI is needed to book. */
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
    />
  );
}
