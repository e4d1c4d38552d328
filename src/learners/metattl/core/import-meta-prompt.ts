/**
 * Applying a meta-training file to Meta-TTL's settings: the strategy φ*
 * replaces the one in force, with a note of where it came from. Pure; a bad
 * file is an error and the settings stay as they were.
 */
import { parseMetaPromptFile } from './meta-prompt-file.ts';
import { SHIPPED_STRATEGY } from './meta-prompt.ts';
import type { MetaTtlSettings } from './metattl-settings.ts';

export type MetaPromptImport = { ok: true; settings: MetaTtlSettings; summary: string } | { ok: false; error: string };

export function importMetaPrompt(settings: MetaTtlSettings, text: string): MetaPromptImport {
  const parsed = parseMetaPromptFile(text);
  if (!parsed.ok) return parsed;
  const t = parsed.file.training;
  const mean = (r: Record<string, number>) => {
    const xs = Object.values(r);
    return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const summary = t
    ? `meta-trained on ${t.suite} (${t.train.length} training, ${t.val.length} validation tasks, ${t.evaluations} evaluations, ${t.model}); validation W-AUC ${(mean(t.validation) * 100).toFixed(1)}% vs seed ${(mean(t.seedValidation) * 100).toFixed(1)}%, ${parsed.file.createdAt.slice(0, 10)}`
    : `imported ${parsed.file.createdAt.slice(0, 10)}`;
  return { ok: true, settings: { ...settings, strategy: parsed.file.strategy, strategySource: 'imported', strategyNote: summary.slice(0, 500) }, summary };
}

export function resetStrategy(settings: MetaTtlSettings): MetaTtlSettings {
  return { ...settings, strategy: SHIPPED_STRATEGY, strategySource: 'shipped', strategyNote: '' };
}
