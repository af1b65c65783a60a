/** 100 × part ÷ whole to one decimal, 0 when whole is 0 (a score, where nothing to count is nothing earned). */
export function percentOf(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}
