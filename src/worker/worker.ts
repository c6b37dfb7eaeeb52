// Entry of the dedicated Web Worker: exposes the WorkerApi through Comlink.
// Runs inside the worker. Imports only src/shared and src/worker.
import { expose } from 'comlink'
import { createWorkerApi } from './worker-api.ts'

expose(createWorkerApi())
