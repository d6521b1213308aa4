/// <reference lib="webworker" />
/** The lifecycle benchmark's load worker (load-worker.ts): the foreground load, off the page that runs the stall probe. */
import * as Comlink from 'comlink';
import { createLoadWorkerApi } from './load-worker';

Comlink.expose(createLoadWorkerApi());
