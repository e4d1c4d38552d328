import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { LEARNER_FACTORIES } from '../../src/core/learning/registry/registry-factories.ts';
import { CANDIDATE_EVIDENCE_VIEWS, EVIDENCE_VIEWS } from '../../src/ui/app/learner-evidence.tsx';
import type { LearnerDefinition } from '../../src/core/learning/learner-definition.ts';
import { registryProblems } from '../support/registry-meta.ts';

describe('the learner registry (meta-test)', () => {
  it('every entry has settings, a factory, an evidence view and export/import (known gaps named)', async () => {
    expect(await registryProblems({ learners: LEARNERS, factories: LEARNER_FACTORIES, evidenceViews: EVIDENCE_VIEWS, candidateEvidenceViews: CANDIDATE_EVIDENCE_VIEWS })).toEqual([]);
  });

  it('fails an entry without a factory, an evidence view or valid defaults (the check can fail)', async () => {
    const broken: LearnerDefinition = {
      id: 'broken', label: 'Broken',
      settings: { schema: z.strictObject({ enabled: z.boolean() }), defaults: { enabled: 'yes' }, read: () => ({ enabled: true }) },
      enabled: () => true,
      needsModel: { level: 'no', description: 'Rule-based.' },
      candidateEvidenceSchema: z.strictObject({ score: z.number() }),
      formerFields: { step: ['score'], candidate: ['semantic'], perCandidate: ['scores'] },
      evidenceSchema: z.strictObject({ scores: z.array(z.number()) }),
      keepsMemory: false,
    };
    const { candidateEvidenceSchema: _, ...withoutCandidateSchema } = broken;
    const noCandidateSchema: LearnerDefinition = { ...withoutCandidateSchema, id: 'lists', formerFields: { perCandidate: ['shifts'] } };
    expect(await registryProblems({ learners: [broken, noCandidateSchema], factories: {}, evidenceViews: {} })).toEqual([
      'broken: its settings defaults do not parse with its settings schema',
      'broken: has a candidate evidence schema but no view in CANDIDATE_EVIDENCE_VIEWS (src/ui/app/learner-evidence.tsx)',
      'broken: former field "semantic" is a field of today\'s stored records',
      'broken: former per-candidate list "scores" is still a field of its step evidence schema',
      'broken: no evidence schema, or no view in EVIDENCE_VIEWS (src/ui/app/learner-evidence.tsx)',
      'broken: no factory in registry-factories.ts',
      'lists: its settings defaults do not parse with its settings schema',
      'lists: former per-candidate list "shifts" has no candidate evidence schema to move to',
      'lists: no evidence schema, or no view in EVIDENCE_VIEWS (src/ui/app/learner-evidence.tsx)',
      'lists: no factory in registry-factories.ts',
    ]);
  });
});
