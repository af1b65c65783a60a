import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/client/lib/api-client';
import { renderWithApp } from '@/testing/ui-render';
import { X12FileDialog } from './x12-file-dialog';

function renderDialog(apply: Parameters<typeof X12FileDialog>[0]['apply']) {
  renderWithApp(
    <X12FileDialog
      trigger="Upload 271"
      description="A payer's answer."
      fieldId="file"
      fieldLabel="271 file"
      accept=".271"
      maxBytes={1024}
      missing="is required: choose the 271 file"
      apply={apply}
    />,
  );
}

describe('X12FileDialog', () => {
  it('asks for a file, refuses one over the size before reading it, and applies one as text with its name', async () => {
    const apply = vi.fn(() => Promise.resolve({ title: 'Applied', description: '2 answers' }));
    const user = userEvent.setup();
    renderDialog(apply);
    await user.click(screen.getByRole('button', { name: 'Upload 271' }));
    const dialog = screen.getByRole('dialog', { name: 'Upload 271' });
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByText('271 file is required: choose the 271 file')).toBeTruthy();

    const input = within(dialog).getByLabelText('271 file');
    await user.upload(input, new File(['x'.repeat(2048)], 'big.271'));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByText('271 file must be at most 1 KB')).toBeTruthy();
    expect(apply).not.toHaveBeenCalled();

    await user.upload(input, new File(['ISA*00~'], 'answer.271'));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('2 answers')).toBeTruthy();
    expect(apply).toHaveBeenCalledWith({ text: 'ISA*00~', fileName: 'answer.271' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the server's refusal under the field, without its field prefix, and stays open", async () => {
    const apply = vi.fn(() =>
      Promise.reject(
        new ApiError(409, '409', 'ELIGIBILITY_UNMATCHED', 'file: trace number 7-1 was never asked about', [], null),
      ),
    );
    const user = userEvent.setup();
    renderDialog(apply);
    await user.click(screen.getByRole('button', { name: 'Upload 271' }));
    const dialog = screen.getByRole('dialog', { name: 'Upload 271' });
    await user.upload(within(dialog).getByLabelText('271 file'), new File(['ISA*00~'], 'answer.271'));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('Trace number 7-1 was never asked about')).toBeTruthy();
  });
});
