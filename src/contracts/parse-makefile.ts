// The little of make's syntax the shims use: variables, `export`, rules and their tab-indented recipes.

interface MakeRecipeLine {
  text: string;
  line: number;
}

export interface MakeRule {
  target: string;
  line: number;
  /** What the rule depends on (`perf-plan: build` → `['build']`). */
  prerequisites: string[];
  recipe: MakeRecipeLine[];
}

export interface ParsedMakefile {
  variables: Map<string, { value: string; line: number }>;
  exported: { name: string; line: number }[];
  rules: MakeRule[];
}

const ASSIGNMENT = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(\?=|:=|::=|\+=|=)\s*(.*)$/;
const RULE = /^([^\s:=#][^:=]*?)\s*::?(?!=)\s*(.*)$/;

function joinContinuations(text: string): MakeRecipeLine[] {
  const out: MakeRecipeLine[] = [];
  let pending: MakeRecipeLine | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const current: MakeRecipeLine = pending
      ? { text: `${pending.text} ${raw.trimStart()}`, line: pending.line }
      : { text: raw, line: index + 1 };
    if (current.text.endsWith('\\')) pending = { text: current.text.slice(0, -1), line: current.line };
    else {
      pending = undefined;
      out.push(current);
    }
  });
  if (pending) out.push(pending);
  return out;
}

// Pure: Makefile text → variables, exported names and rules (targets with their recipe lines).
export function parseMakefile(text: string): ParsedMakefile {
  const parsed: ParsedMakefile = { variables: new Map(), exported: [], rules: [] };
  let recipe: MakeRecipeLine[] | undefined;
  for (const { text: raw, line } of joinContinuations(text)) {
    if (raw.startsWith('\t')) {
      if (recipe && raw.trim() !== '' && !raw.trim().startsWith('#')) recipe.push({ text: raw.trim(), line });
      continue;
    }
    const stripped = raw.replace(/#.*$/, '').trim();
    if (stripped === '') continue;
    recipe = undefined;
    const exportOnly = /^export\s+([^=]+)$/.exec(stripped);
    if (exportOnly?.[1]) {
      for (const name of exportOnly[1].split(/\s+/).filter(Boolean)) parsed.exported.push({ name, line });
      continue;
    }
    const assignment = ASSIGNMENT.exec(stripped);
    if (assignment?.[1] && assignment[3] !== undefined) {
      parsed.variables.set(assignment[1], { value: assignment[3].trim(), line });
      if (stripped.startsWith('export ')) parsed.exported.push({ name: assignment[1], line });
      continue;
    }
    const ruleMatch = RULE.exec(stripped);
    if (ruleMatch?.[1]) {
      const shared: MakeRecipeLine[] = [];
      recipe = shared;
      const prerequisites = (ruleMatch[2] ?? '').split(/\s+/).filter(Boolean);
      for (const target of ruleMatch[1].split(/\s+/).filter(Boolean))
        parsed.rules.push({ target, line, prerequisites, recipe: shared });
    }
  }
  return parsed;
}
