/** "1 attempt", "2 attempts": a count with its noun in the right number. */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
