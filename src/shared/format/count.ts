// Counted nouns for display: '1 guest', '2 guests', '1,975 guests'.

/** `count` with its noun, singular for exactly one; the plural defaults to noun + 's'. */
export function countText(count: number, noun: string, plural = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : plural}`
}
