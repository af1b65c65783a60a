import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type TestApp } from '@/testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('user settings', () => {
  it('starts from the defaults', async () => {
    const s = await signInAs(t.app, 'guest');
    const res = await s.request({ method: 'GET', url: '/api/settings' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ highContrast: false, fontSize: 'medium', mfaEnabled: false });
  });

  it('saves a change and returns it on a new sign-in', async () => {
    const first = await signInAs(t.app, 'doctor');
    const patch = await first.request({
      method: 'PATCH',
      url: '/api/settings',
      payload: { highContrast: true, fontSize: 'large' },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json()).toMatchObject({ highContrast: true, fontSize: 'large' });
    await first.request({ method: 'POST', url: '/api/auth/logout' });

    const second = await signInAs(t.app, 'doctor');
    const res = await second.request({ method: 'GET', url: '/api/settings' });
    expect(res.json()).toMatchObject({ highContrast: true, fontSize: 'large' });
  });

  it('keeps each user to their own settings', async () => {
    const nurse = await signInAs(t.app, 'nurse_manager');
    const res = await nurse.request({ method: 'GET', url: '/api/settings' });
    expect(res.json()).toMatchObject({ highContrast: false, fontSize: 'medium' });
  });

  it('refuses bad values with the field named, and writes nothing', async () => {
    const s = await signInAs(t.app, 'admin');
    const bad = await s.request({ method: 'PATCH', url: '/api/settings', payload: { fontSize: 'huge' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { fields: { field: string }[] } }>().error.fields[0]?.field).toBe('fontSize');
    const unknown = await s.request({ method: 'PATCH', url: '/api/settings', payload: { id: 99, role: 'admin' } });
    expect(unknown.statusCode).toBe(400);
    const after = await s.request({ method: 'GET', url: '/api/settings' });
    expect(after.json()).toMatchObject({ fontSize: 'medium' });
  });
});
