import { describe, expect, it } from 'vitest';
import { formatCause, renderWhyMd, renderWhySentence } from '../../../src/report/render-why.js';
import { renderSummaryHtml } from '../../../src/report/render-summary-html.js';
import { makeModel } from '../diff/make-model.js';

const pytorch = {
  target: 'pytorch',
  onCriticalPath: true,
  why: {
    firstMiss: { vertex: 'sha256:1', name: '[stage-0 3/4] RUN build' },
    cause: { kind: 'build-arg' as const, name: 'ROCM_VERSION', old: '6.4', new: '6.5' },
    rebuiltAfter: ['torchaudio-wheel', 'torchvision-wheel', 'vllm-wheel'],
    costSeconds: 372,
  },
};

describe('the why sentence', () => {
  it('reads as the issue writes it: cause, step, target, rebuilt after it, makespan cost on the critical path', () => {
    expect(renderWhySentence(pytorch)).toBe(
      'build arg ROCM_VERSION 6.4 → 6.5 changed `RUN build` of pytorch; 3 targets rebuilt after it (torchaudio-wheel, torchvision-wheel, vllm-wheel); +6m12s of makespan (critical path)',
    );
  });

  it('every cause names its old and new values', () => {
    expect(
      formatCause({
        kind: 'input-image',
        ref: 'docker-image://r/rocm/base:gfx1201',
        old: `sha256:${'a'.repeat(64)}`,
        new: `sha256:${'b'.repeat(64)}`,
      }),
    ).toBe('input image docker-image://r/rocm/base:gfx1201 moved sha256:aaaaaaaaaaaa → sha256:bbbbbbbbbbbb');
    expect(
      formatCause({
        kind: 'files',
        instruction: 'COPY src/app /src',
        added: ['NEWS'],
        removed: [],
        changed: ['main.c'],
        count: 2,
      }),
    ).toBe('files under `COPY src/app /src`: 1 added (NEWS), 1 changed (main.c)');
    expect(
      formatCause({ kind: 'cache-import-empty', ref: 'r/rocm/cache:app', evidence: 'ref-missing' }),
    ).toBe('the cache import from r/rocm/cache:app had nothing (the ref is missing)');
  });

  it('no miss: no sentence; the md section says what it compared against and lists the notes', () => {
    expect(
      renderWhySentence({ ...pytorch, why: { ...pytorch.why, firstMiss: null, cause: null } }),
    ).toBeUndefined();
    const md = renderWhyMd([pytorch], {
      against: 'A',
      notes: ['not recorded: x'],
    }).join('\n');
    expect(md).toContain('Against run `A`: 1 of 1 explained targets');
    expect(md).toContain('- note: not recorded: x');
  });

  it('the page’s section escapes what run files put in it', () => {
    const model = makeModel({
      stamp: 'S',
      targets: [{ target: 'app', node: 'n1', startS: 0, endS: 10, buildS: 9, uploadS: 1, bytes: 0 }],
    });
    model.summary.why = { against: 'A<script>', notes: [] };
    model.summary.targets[0]!.why = {
      firstMiss: { vertex: 'sha256:1', name: '[1/2] RUN <img src=x>' },
      cause: { kind: 'instruction', old: 'RUN a', new: 'RUN <b>' },
      rebuiltAfter: [],
      costSeconds: 4,
    };
    const html = renderSummaryHtml(model);
    expect(html).toContain('Why targets missed the cache');
    expect(html).toContain('[1/2] RUN &#60;img src=x&#62;');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>');
  });
});
