/** Dollars as typed ('25', '25.5', '25.50', '$1200') to cents; anything else is not an amount (null). */
export function dollarsToCents(text: string): number | null {
  const match = /^\s*\$?(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** Cents as a dollar amount to type into a field: '1234.50', no thousands separator. */
export function centsToDollarsInput(cents: number): string {
  return (cents / 100).toFixed(2);
}
