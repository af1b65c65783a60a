import { describe, expect, it } from 'vitest';
import {
  canSearch,
  FIELD_VISIBLE_TO,
  MASKED_FIELDS,
  PERMISSIONS,
  RESTRICTED,
  ROLES,
  SCREENS,
  allows,
  can,
  canOpen,
  homePathFor,
  maskHomeAddressPart,
  maskList,
  maskPatient,
  maskText,
  roleLabel,
  rolesWith,
  screenOf,
  canonicalScreenPath,
  type Role,
} from './access';

// The product's route table (docs/access.md), written out again on purpose: the policy must match it, not itself.
const EXPECTED_ROUTES: Record<Role, string[]> = {
  guest: ['/', '/home', '/settings'],
  nurse_manager: ['/', '/home', '/patients', '/appointments', '/overdue-followups', '/authorizations', '/settings'],
  doctor: [
    '/',
    '/home',
    '/patients',
    '/appointments',
    '/overdue-followups',
    '/authorizations',
    '/analytics',
    '/billing',
    '/rtm',
    '/settings',
  ],
  billing_admin: [
    '/',
    '/home',
    '/claims',
    '/remittances',
    '/work-queue',
    '/kpis',
    '/analytics',
    '/billing',
    '/audit',
    '/rtm',
    '/settings',
  ],
  patient: ['/patient-portal', '/settings'],
  admin: [
    '/',
    '/home',
    '/patients',
    '/appointments',
    '/overdue-followups',
    '/authorizations',
    '/claims',
    '/remittances',
    '/work-queue',
    '/analytics',
    '/billing',
    '/audit',
    '/compliance',
    '/rtm',
    '/settings',
  ],
};
const ALL_ROUTES = ['/', ...SCREENS.map((s) => s.path)];

describe('route access', () => {
  for (const role of ROLES) {
    it(`${role} may open exactly its routes`, () => {
      const open = ALL_ROUTES.filter((path) => canOpen(role, path));
      expect(open.sort()).toEqual([...EXPECTED_ROUTES[role]].sort());
    });
  }

  it('allows sub-paths of an allowed route and nothing that only shares a prefix', () => {
    expect(canOpen('patient', '/patient-portal/billing')).toBe(true);
    expect(canOpen('nurse_manager', '/patients/123')).toBe(true);
    expect(canOpen('patient', '/patients')).toBe(false);
    expect(canOpen('admin', '/homepage')).toBe(false);
    expect(canOpen('admin', '/unknown')).toBe(false);
  });

  it('treats / as /home and sends the patient to the portal', () => {
    expect(screenOf('/')).toBe('/home');
    expect(homePathFor('patient')).toBe('/patient-portal');
    for (const role of ROLES.filter((r) => r !== 'patient')) expect(homePathFor(role)).toBe('/home');
  });

  it('shows role names with spaces', () => {
    expect(roleLabel('billing_admin')).toBe('billing admin');
    expect(roleLabel('nurse_manager')).toBe('nurse manager');
  });
});

describe('API permissions (docs/access.md)', () => {
  it('opens GET /api/claims to billing_admin, doctor and admin only', () => {
    expect(rolesWith('claims:read').sort()).toEqual(['admin', 'billing_admin', 'doctor']);
  });

  it('keeps dashboard data from guests', () => {
    expect(can('guest', 'dashboard:read')).toBe(false);
    expect(can('nurse_manager', 'dashboard:read')).toBe(true);
  });

  it('gives admin-only operations to admin only', () => {
    for (const p of ['users:manage', 'system:admin', 'compliance:read', 'audit:verify'] as const)
      expect(rolesWith(p)).toEqual(['admin']);
  });

  it('lets only the roles with a Security settings tab change their password', () => {
    expect(rolesWith('account:password').sort()).toEqual([
      'admin',
      'billing_admin',
      'doctor',
      'nurse_manager',
      'patient',
    ]);
  });

  it('gives guest payment to the guest only', () => {
    expect(rolesWith('guest:pay')).toEqual(['guest']);
    expect(PERMISSIONS.filter((p) => can('guest', p)).sort()).toEqual(['guest:pay', 'settings:own']);
  });

  it('gives a patient only their portal, settings and own password', () => {
    const granted = PERMISSIONS.filter((p) => can('patient', p)).sort();
    expect(granted).toEqual(['account:password', 'portal:pay', 'portal:read', 'settings:own']);
  });

  it('a permission is granted exactly when the role opens a screen that needs it', () => {
    for (const role of ROLES) {
      for (const permission of ['patients:read', 'audit:read', 'worklist:read', 'rtm:run'] as const) {
        expect(can(role, permission)).toBe(rolesWith(permission).includes(role));
      }
    }
    expect(rolesWith('audit:read').sort()).toEqual(['admin', 'billing_admin']);
  });

  it('public routes allow anyone, authenticated ones any session, permissions only their roles', () => {
    expect(allows('public', null)).toBe(true);
    expect(allows('authenticated', null)).toBe(false);
    expect(allows('authenticated', 'guest')).toBe(true);
    expect(allows('patients:read', null)).toBe(false);
    expect(allows('patients:read', 'guest')).toBe(false);
    expect(allows('patients:read', 'doctor')).toBe(true);
  });
});

describe('PHI masking (docs/access.md)', () => {
  const record = {
    dob: '1984-07-15',
    phone: '(555) 201-3344',
    mrn: 'MRN-104233',
    notes: 'Follow up on A1c',
    allergies: ['Penicillin'],
    meds: ['Metformin 500 mg'],
  };
  const masked = {
    dob: 'XX-XX-1984',
    phone: '***-***-3344',
    mrn: '********33',
    notes: RESTRICTED,
    allergies: [RESTRICTED],
    meds: [RESTRICTED],
  };

  for (const role of ROLES) {
    for (const field of MASKED_FIELDS) {
      const visible = FIELD_VISIBLE_TO[field].includes(role);
      it(`${field} is ${visible ? 'shown' : 'masked'} for ${role}`, () => {
        const out = maskPatient(record, role);
        expect(out[field]).toEqual(visible ? record[field] : masked[field]);
      });
    }
  }

  it('matches the masking table of who sees what (docs/access.md)', () => {
    expect(FIELD_VISIBLE_TO.dob).toEqual(['doctor', 'billing_admin', 'admin']);
    expect(FIELD_VISIBLE_TO.phone).toEqual(['nurse_manager', 'doctor', 'billing_admin', 'admin']);
    expect(FIELD_VISIBLE_TO.mrn).toEqual(['nurse_manager', 'doctor', 'admin']);
    expect(FIELD_VISIBLE_TO.notes).toEqual(['doctor', 'admin']);
    expect(FIELD_VISIBLE_TO.allergies).toEqual(['nurse_manager', 'doctor', 'admin']);
  });

  for (const role of ROLES) {
    it(`keeps empty values empty for ${role}`, () => {
      expect(maskText('dob', '', role)).toBe('');
      expect(maskText('phone', '', role)).toBe('');
      expect(maskText('mrn', '', role)).toBe('');
      expect(maskText('notes', '', role)).toBe('');
      expect(maskList('allergies', [], role)).toEqual([]);
      expect(maskList('meds', [], role)).toEqual([]);
    });
  }

  it('masks a phone with fewer than 4 digits as ***', () => {
    expect(maskText('phone', '12', 'guest')).toBe('***');
  });

  it('masks a 2-character MRN entirely', () => {
    expect(maskText('mrn', 'AB', 'patient')).toBe('**');
  });

  it('leaves fields a record does not carry absent', () => {
    expect(maskPatient({ mrn: 'MRN-1' }, 'guest')).toEqual({ mrn: '***-1' });
  });
});

describe('canSearch', () => {
  it('gives the search box only to roles that open a searchable screen', () => {
    expect(ROLES.filter(canSearch)).toEqual(['nurse_manager', 'doctor', 'billing_admin', 'admin']);
  });
});

describe('canonicalScreenPath', () => {
  it('gives a screen path typed in another case in lower case, and nothing for canonical or unknown paths', () => {
    expect(canonicalScreenPath('/CLAIMS')).toBe('/claims');
    expect(canonicalScreenPath('/Patients/')).toBe('/patients');
    expect(canonicalScreenPath('/Overdue-Followups?x=1')).toBe('/overdue-followups');
    expect(canonicalScreenPath('/claims')).toBeNull();
    expect(canonicalScreenPath('/NO-SUCH-PAGE')).toBeNull();
  });
});

describe('maskHomeAddressPart', () => {
  it('shows a street whole to the front desk, billing and the admin, and to no one else who reads it', () => {
    const whole = ROLES.filter((role) => maskHomeAddressPart('42 Elm Street', role) === '42 Elm Street');
    expect(whole).toEqual(['nurse_manager', 'billing_admin', 'admin']);
    expect(maskHomeAddressPart('62704', 'doctor')).toBe(RESTRICTED);
    // Nothing on file stays nothing: a restricted marker would read as an address someone entered.
    expect(maskHomeAddressPart(null, 'doctor')).toBeNull();
  });
});
