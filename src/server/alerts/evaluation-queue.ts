// The alert service's polls, evaluated a slice per turn of the event loop (issue 27: at 100,000
// guests with 1,000,000 backup records one evaluation held the loop for seconds). One poll is
// evaluated at a time; polls that arrive meanwhile wait, and only the newest is evaluated next.
// A run whose engine changed under it (an ack, a clear, a config save) is dropped and its poll
// evaluated again from the changed engine.
import { performance } from 'node:perf_hooks'
import type { AlertConfig } from '../../shared/model/alerts.ts'
import type { State } from '../../shared/model/state.ts'
import type { EngineState, EvaluateResult } from './engine-types.ts'
import { evaluateSteps } from './evaluate.ts'

/** How one poll's evaluation went: all of it, over how many turns, the longest turn. */
export interface EvaluationFigures {
  evaluateMs: number
  evaluateTurns: number
  evaluateLongestMs: number
}

export interface EvaluationQueueDeps {
  /** Milliseconds of evaluation per turn (Infinity: all of it in one turn). */
  sliceMs: number
  engine(): EngineState
  config(): AlertConfig
  /** True while something else must end first (a storm's step still being written). */
  blocked(): boolean
  /** Persist and tell the result of an evaluation that ended. */
  commit(result: EvaluateResult, now: number, figures: EvaluationFigures): void
  /** Publish the live state again (an evaluation ended after its poll's own turn). */
  republish(): void
  log: { error(obj: object, msg: string): void }
}

export interface EvaluationQueue {
  /**
   * Hand in a polled state. When nothing runs, its first slice runs now; when it ends there, the
   * caller publishes its result itself (a later end republishes).
   */
  poll(state: State, now: number): void
  /** Start the waiting poll when nothing runs any more. */
  resume(): void
  /** Drop the run in progress: its poll waits to be evaluated again (unless a newer one waits). */
  interrupt(): void
  /** Forget the run and the waiting poll. */
  clear(): void
  /** Forget the waiting poll when it is this state (it was evaluated some other way). */
  forget(state: State): void
  /** Nothing runs and nothing waits. */
  idle(): boolean
}

interface Run {
  state: State
  now: number
  steps: Generator<void, EvaluateResult, void>
  base: EngineState
  spentMs: number
  turns: number
  longestMs: number
}

export function createEvaluationQueue(deps: EvaluationQueueDeps): EvaluationQueue {
  let running: Run | null = null
  let waiting: { state: State; now: number } | null = null

  const interrupt = () => {
    const run = running
    if (!run) return
    running = null
    waiting ??= { state: run.state, now: run.now }
  }

  /** Run the evaluation for one slice; true once it is over (committed or failed). */
  const advance = (run: Run): boolean => {
    const t0 = performance.now()
    let result: EvaluateResult | undefined
    try {
      for (;;) {
        const step = run.steps.next()
        if (step.done) {
          result = step.value
          break
        }
        if (performance.now() - t0 >= deps.sliceMs) break
      }
    } catch (err) {
      // The poll is published regardless, with the alerts as they were.
      running = null
      deps.log.error({ err }, 'alert evaluation failed')
      return true
    }
    const spent = performance.now() - t0
    run.spentMs += spent
    run.turns++
    run.longestMs = Math.max(run.longestMs, spent)
    if (!result) return false
    running = null
    deps.commit(result, run.now, {
      evaluateMs: run.spentMs,
      evaluateTurns: run.turns,
      evaluateLongestMs: run.longestMs,
    })
    return true
  }

  const start = (inline: boolean) => {
    const next = waiting
    if (!next || running || deps.blocked()) return
    waiting = null
    const engine = deps.engine()
    const run: Run = {
      state: next.state,
      now: next.now,
      steps: evaluateSteps(next.state, deps.config(), next.now, engine),
      base: engine,
      spentMs: 0,
      turns: 0,
      longestMs: 0,
    }
    running = run
    const ended = () => {
      // A storm's step being written republishes (and resumes the queue) once it is told.
      if (deps.blocked()) return
      deps.republish()
      start(false)
    }
    const turn = () => {
      if (running !== run) return
      if (deps.engine() !== run.base) {
        interrupt()
        start(false)
      } else if (advance(run)) ended()
      else setImmediate(turn)
    }
    if (!advance(run)) setImmediate(turn)
    else if (!inline) ended()
  }

  return {
    poll(state, now) {
      waiting = { state, now }
      start(true)
    },
    resume: () => start(false),
    interrupt,
    clear() {
      running = null
      waiting = null
    },
    forget(state) {
      if (waiting?.state === state) waiting = null
    },
    idle: () => running === null && waiting === null,
  }
}
