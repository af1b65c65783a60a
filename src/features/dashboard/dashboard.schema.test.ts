import { describe, expect, it } from 'vitest';
import { formatRevenueThousands } from './dashboard.schema';

describe('formatRevenueThousands', () => {
  it('shows whole thousands of dollars, rounded, with a k', () => {
    expect(formatRevenueThousands(41_234_567)).toBe('$412k');
    expect(formatRevenueThousands(49_950)).toBe('$0k');
    expect(formatRevenueThousands(150_000)).toBe('$2k');
    expect(formatRevenueThousands(12_345_678_900)).toBe('$123,457k');
  });
});
