// The Liquid engine of webhook templates, bounded. A render is stopped once it has run for
// RENDER_LIMIT_MS (liquidjs checks the clock between template nodes; a render stopped by the clock
// is tried once more, so one renderTemplate holds the event loop for at most RENDER_BOUND_MS), once
// its strings and ranges have taken RENDER_MEMORY_LIMIT characters or items, and when a filter is
// handed a list longer than FILTER_ITEMS_MAX (one `where` or `sort` over a long range is a single
// node the clock check never interrupts). Custom templates see at most CUSTOM_ALERTS_MAX alerts,
// and a template is tried on a sample of that size before it is saved (sample.ts trialRender), so
// what passes the trial fits the bound. No file system: a template cannot `include` a server file.
import { Liquid, type Template } from 'liquidjs'

/** A render running longer than this is stopped (between two template nodes). */
export const RENDER_LIMIT_MS = 100
/** What one renderTemplate may cost at most: two renders stopped by the clock. */
export const RENDER_BOUND_MS = 2 * RENDER_LIMIT_MS
/** Characters of strings and items of ranges a render may allocate, in all. */
export const RENDER_MEMORY_LIMIT = 512 * 1024
/** Items of a list any filter accepts. */
export const FILTER_ITEMS_MAX = 1000
/** Characters of a template. */
export const TEMPLATE_MAX = 64 * 1024
const TEMPLATE_CACHE_MAX = 256

/** A template stopped by one of the bounds (the message says which, for an administrator). */
export class TemplateBoundError extends Error {
  constructor(
    readonly bound: 'time' | 'memory' | 'items',
    message: string,
  ) {
    super(message)
  }
}

const liquid = new Liquid({
  // An empty in-memory file system: {% include %} and {% render %} find nothing.
  templates: {},
  strictFilters: true,
  parseLimit: TEMPLATE_MAX,
  renderLimit: RENDER_LIMIT_MS,
  memoryLimit: RENDER_MEMORY_LIMIT,
})

/** Wrap every built-in filter: a list over FILTER_ITEMS_MAX, as input or argument, stops it. */
for (const [name, filter] of Object.entries(liquid.filters)) {
  const handler = typeof filter === 'function' ? filter : filter.handler
  if (!handler) continue
  const raw = typeof filter === 'function' ? false : Boolean(filter.raw)
  liquid.registerFilter(name, {
    raw,
    handler(this: ThisParameterType<typeof handler>, input: unknown, ...args: unknown[]) {
      for (const value of [input, ...args]) {
        if (Array.isArray(value) && value.length > FILTER_ITEMS_MAX) {
          throw new TemplateBoundError(
            'items',
            `gives the filter ${name} ${value.length} items (at most ${FILTER_ITEMS_MAX})`,
          )
        }
      }
      return handler.call(this, input, ...args)
    },
  })
}
// JSON.stringify, with null for what has no JSON form (an unset variable).
liquid.registerFilter('json', (value: unknown) => JSON.stringify(value ?? null) ?? 'null')
// Telegram's legacy Markdown: a backslash before _ * ` [ shows them as they are.
liquid.registerFilter('md', (value: unknown) => String(value ?? '').replace(/([_*`[])/g, '\\$1'))
// The reference's Go template functions, for custom templates written against it.
liquid.registerFilter('upper', (value: unknown) => String(value ?? '').toUpperCase())
liquid.registerFilter('lower', (value: unknown) => String(value ?? '').toLowerCase())
liquid.registerFilter('title', (value: unknown) =>
  String(value ?? '').replace(/\b\p{L}/gu, (c) => c.toUpperCase()),
)

const cache = new Map<string, Template[]>()

/** Parse a template (cached); throws liquidjs's error for invalid syntax. */
export function compileTemplate(source: string): Template[] {
  let parsed = cache.get(source)
  if (!parsed) {
    parsed = liquid.parse(source)
    // Custom templates are few; a bound keeps a stream of edits from growing the cache forever.
    if (cache.size >= TEMPLATE_CACHE_MAX) cache.clear()
    cache.set(source, parsed)
  }
  return parsed
}

/** The bound behind a liquidjs error, if one stopped the render. */
function boundError(err: unknown, elapsedMs: number): TemplateBoundError | undefined {
  let cause: unknown = err
  while (cause instanceof Error) {
    if (cause instanceof TemplateBoundError) return cause
    cause = (cause as { originalError?: unknown }).originalError
  }
  const message = err instanceof Error ? err.message : ''
  if (message.includes('memory alloc limit exceeded')) {
    return new TemplateBoundError(
      'memory',
      `allocates more than ${RENDER_MEMORY_LIMIT / 1024} KiB of text or list items`,
    )
  }
  if (message.includes('template render limit exceeded') || elapsedMs >= RENDER_LIMIT_MS) {
    return new TemplateBoundError('time', `takes longer than ${RENDER_LIMIT_MS} ms to render`)
  }
  return undefined
}

function renderOnce(source: string, data: object): string {
  const start = performance.now()
  try {
    return liquid.renderSync(compileTemplate(source), data) as string
  } catch (err) {
    throw boundError(err, performance.now() - start) ?? err
  }
}

/**
 * Render `source` with `data`, synchronously, within the bounds. Throws a TemplateBoundError when
 * one stopped it, liquidjs's error otherwise. A render stopped by the clock is tried once more at
 * once: the clock is the wall's, and a process the machine set aside for a moment (or a first,
 * cold render) is not the template's fault; a template that is really too slow is stopped again.
 */
export function renderTemplate(source: string, data: object): string {
  try {
    return renderOnce(source, data)
  } catch (err) {
    if (!(err instanceof TemplateBoundError && err.bound === 'time')) throw err
    return renderOnce(source, data)
  }
}
