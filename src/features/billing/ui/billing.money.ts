/** Cents as a dollar amount to type into a field: '1234.50', no thousands separator. */
export function centsToDollarsInput(cents: number): string {
  return (cents / 100).toFixed(2);
}
