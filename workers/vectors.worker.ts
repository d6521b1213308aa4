/// <reference lib="webworker" />
// Entry point only: the vector-search worker the DB worker spawns per open database (issue 18,
// engine/embeddings/vector-search-worker.ts): a mirror of the vector indexes that searches beside the lexical lanes.
import { embedWithProvider } from '../src/lib/engine/embeddings';
import { serveVectorSearch } from '../src/lib/engine/embeddings/vector-search-worker';

serveVectorSearch(self, { embed: embedWithProvider });
