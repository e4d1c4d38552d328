/**
 * CER §3.1: distilling experience from one trajectory. Two distillers, both
 * shown the site's existing buffer so they skip or merge what is known:
 *  - the model path (distill-model.ts) asks the model twice (dynamics, then
 *    skills) for JSON validated by zod; malformed or empty output leaves the
 *    buffer unchanged and says why;
 *  - the offline path (distill-offline.ts, no model) derives dynamics from the
 *    pages visited and one skill from the executed actions, with the task's
 *    values abstracted into {variables}.
 * Neither writes: they return candidate entries for buffer.ts to merge.
 */
export { describeAction, executedSteps, type DistillInput, type DistillResult } from './distill-common.ts';
export { distillOffline } from './distill-offline.ts';
export {
  distillWithModel, DistilledPagesSchema, DistilledSkillsSchema, renderExistingDynamics, renderExistingSkills, renderTrajectory,
  type DistilledPages, type DistilledSkills,
} from './distill-model.ts';
