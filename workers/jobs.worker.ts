/// <reference lib="webworker" />
// Entry point only: background jobs (maintenance now; distillation, decay, compaction later).
import * as Comlink from 'comlink';
import { createJobsWorkerApi } from '../src/lib/engine/jobs/worker-api';

Comlink.expose(createJobsWorkerApi());
