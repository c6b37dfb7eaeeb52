// Browser tier setup file: each test file gets its own localStorage and sessionStorage.
// Vitest runs browser test files in parallel frames of one origin, so the real storages are
// shared between files: one file's saved update cache or preferences (or its cleanup's
// `localStorage.clear()`) could change what a test running beside it sees. Storage semantics
// (strings only, `null` for a missing key) are kept; cross-tab `storage` events are not used.

class MemoryStorage implements Storage {
  #items = new Map<string, string>()

  get length(): number {
    return this.#items.size
  }

  clear(): void {
    this.#items.clear()
  }

  getItem(key: string): string | null {
    return this.#items.get(String(key)) ?? null
  }

  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null
  }

  removeItem(key: string): void {
    this.#items.delete(String(key))
  }

  setItem(key: string, value: string): void {
    this.#items.set(String(key), String(value))
  }
}

for (const name of ['localStorage', 'sessionStorage'] as const) {
  Object.defineProperty(window, name, { configurable: true, value: new MemoryStorage() })
}
