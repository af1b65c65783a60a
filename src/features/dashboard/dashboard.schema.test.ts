import { describe, expect, it } from 'vitest';
import { formatRevenueThousands } from './dashboard.schema';

describe('formatRevenueThousands', () => {
  it('shows whole thousands of dollars, rounded, with a k', () => {
    expect(formatRevenueThousands(41_234_567)).toBe('$412k');
    // Under $1,000 in whole dollars: a rounded '$0k' would hide it.
    expect(formatRevenueThousands(49_950)).toBe('$500');
    expect(formatRevenueThousands(0)).toBe('$0');
    expect(formatRevenueThousands(99_949)).toBe('$999');
    expect(formatRevenueThousands(99_950)).toBe('$1k');
    expect(formatRevenueThousands(150_000)).toBe('$2k');
    expect(formatRevenueThousands(12_345_678_900)).toBe('$123,457k');
  });
});
