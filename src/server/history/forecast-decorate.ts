// Puts the forecasts on the state about to be published (`forecast` on Storage and PbsDatastore).
// Cheap and identity-keeping: a storage whose forecast is unchanged stays the same object and an
// unchanged list stays the same array, so the live state's diff skips them (delta-steps.ts).
import { datastoreResourceId, type StorageForecast } from '../../shared/model/history.ts'
import type { PbsInstance, State, Storage } from '../../shared/model/state.ts'
import { storageForecastKey } from './forecast-job.ts'

type Lookup = (key: string) => StorageForecast | undefined

/** Returns a decorate step for the live state over the job's forecasts. */
export function createForecastDecorator(forecasts: {
  get: Lookup
  readonly version: number
}): (next: State) => void {
  // The last answer per input array and job version: republishing costs nothing.
  let storageMemo: { input: Storage[]; version: number; output: Storage[] } | undefined
  let pbsMemo: { input: PbsInstance[]; version: number; output: PbsInstance[] } | undefined
  const copies = new WeakMap<object, { forecast: StorageForecast; copy: object }>()

  function withForecast<T extends { forecast?: StorageForecast }>(
    item: T,
    forecast: StorageForecast | undefined,
  ): T {
    if (item.forecast === forecast) return item
    if (!forecast) {
      const { forecast: _dropped, ...rest } = item
      return rest as T
    }
    const memo = copies.get(item)
    if (memo && memo.forecast === forecast) return memo.copy as T
    const copy = { ...item, forecast }
    copies.set(item, { forecast, copy })
    return copy
  }

  function decorateStorage(list: Storage[]): Storage[] {
    let changed = false
    const out = list.map((s) => {
      const next = withForecast(s, forecasts.get(storageForecastKey(s)))
      if (next !== s) changed = true
      return next
    })
    return changed ? out : list
  }

  function decoratePbs(list: PbsInstance[]): PbsInstance[] {
    let changed = false
    const out = list.map((pbs) => {
      let storesChanged = false
      const datastores = pbs.datastores.map((d) => {
        const next = withForecast(d, forecasts.get(datastoreResourceId(pbs.id, d.name)))
        if (next !== d) storesChanged = true
        return next
      })
      if (!storesChanged) return pbs
      changed = true
      return { ...pbs, datastores }
    })
    return changed ? out : list
  }

  return (next) => {
    const version = forecasts.version
    if (storageMemo?.input !== next.storage || storageMemo.version !== version) {
      const input = next.storage
      storageMemo = { input, version, output: decorateStorage(input) }
    }
    next.storage = storageMemo.output
    if (pbsMemo?.input !== next.pbs || pbsMemo.version !== version) {
      const input = next.pbs
      pbsMemo = { input, version, output: decoratePbs(input) }
    }
    next.pbs = pbsMemo.output
  }
}
