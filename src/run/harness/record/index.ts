export { estimateRunDir, findDiskProblem } from './estimate-run-dir.js';
export { createRunDirGuard, describeUnwritten, type RunDirGuard } from './guard-run-dir.js';
export { readBuildMetadata, toImageArtifacts } from './read-build-metadata.js';
export { createInitialRun, createRunFileWriter, type RunFileWriter } from './run-file-writer.js';
