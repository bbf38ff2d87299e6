// The one place the CLI reads its environment. make hands an unset variable down as empty (the Makefile's
// `export PERF_FLEET …`), and an empty variable means "not set" (README): a variable whose value is empty or only
// blanks is left out here, so every reader after this one (flag defaults, the config's REGISTRY_NAME and
// PERF_BUILDX, the harness's PERF_COLD_NAMESPACE and DOCKER_CONFIG) sees it unset.

/** The environment as the CLI sees it: only variables with a value. */
export type CliEnv = Readonly<Record<string, string>>;

/** Whether a variable counts as set: `PERF_FLEET=` and `PERF_FLEET=" "` do not. */
function isSetValue(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

// Pure: the process environment → a copy without its empty variables.
export function readCliEnv(env: Readonly<Record<string, string | undefined>>): CliEnv {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (isSetValue(value)) out[name] = value;
  return out;
}

/** The ssh agent every ssh connection may use (connect-ssh.ts), handed down as a value: the core reads no env. */
export function readSshAgent(env: CliEnv): string | undefined {
  return env.SSH_AUTH_SOCK;
}
