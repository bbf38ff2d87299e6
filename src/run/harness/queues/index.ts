export { createGuidedChooser } from './create-guided-chooser.js';
export { runGuidedQueues } from './guided-queues.js';
export { findQueueProblems, type QueueEvent, runNodeQueues, type SettledOutcome } from './node-queue.js';
