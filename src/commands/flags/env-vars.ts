// Environment variables the CLI reads besides its flags' own (`env` in the flag tables): what each means, for
// `--help`, and a file that reads it, for the test that holds this list against the source.

export const OTHER_ENV_VARS = {
  PERF_COLD_NAMESPACE: 'src/commands/flags/harness-flags.ts',
  REGISTRY_NAME: 'src/config/resolve-config.ts',
  PERF_BUILDX: 'src/config/resolve-config.ts',
  PUSH: 'src/commands/publish.ts',
  SSH_AUTH_SOCK: 'src/commands/flags/read-cli-env.ts',
  DOCKER_CONFIG: 'src/commands/flags/harness-flags.ts',
  GITHUB_STEP_SUMMARY: 'src/commands/harness-summary.ts',
} as const;

export type OtherEnvVar = keyof typeof OTHER_ENV_VARS;

export const ENV_VAR_MEANINGS: Readonly<Record<OtherEnvVar, string>> = {
  PERF_COLD_NAMESPACE: "appended to a cold run's registry namespace (e.g. -ci, to keep CI's cold runs apart)",
  REGISTRY_NAME: "the registry namespace, instead of fleet.yaml's registry.name",
  PERF_BUILDX:
    'a standalone buildx binary to run instead of `docker buildx` (over bake.buildx in fleet.yaml)',
  PUSH: 'PUSH=1 means --push',
  SSH_AUTH_SOCK: "the ssh agent that holds the keys for fleet.yaml's ssh targets",
  DOCKER_CONFIG: 'the docker config dir whose credentials reach the registry (default ~/.docker)',
  GITHUB_STEP_SUMMARY:
    "a file the end-of-run summary is appended to as markdown (GitHub Actions' job summary; docs/summary.md); its serve URL takes serve's PERF_BIND and PERF_PORT",
};
