import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Toaster, toast } from './toast';

describe('toasts', () => {
  it('shows title and description, one at a time: a new toast replaces the previous one', () => {
    render(<Toaster />);
    act(() => toast({ title: 'Patient created', description: 'New patient has been added successfully' }));
    expect(screen.getByText('Patient created')).toBeTruthy();
    expect(screen.getByText('New patient has been added successfully')).toBeTruthy();

    act(() =>
      toast({
        title: 'Access denied',
        description: 'You do not have permission to access this page',
        variant: 'destructive',
      }),
    );
    expect(screen.getByText('Access denied')).toBeTruthy();
    expect(screen.queryByText('Patient created')).toBeNull();
  });
});
