/**
 * EvoTest's settings on the options page: whether it runs, UCB's exploration
 * constant, children per episode, and whether the configured model may evolve
 * guidance and rules. Says plainly what it does without a model.
 */
import { evotestDefinition } from '../../core/learning/evotest/definition.ts';
import type { EvotestSettings } from '../../core/learning/evotest/settings.ts';

export function EvotestOptions({ value, onChange }: { value: EvotestSettings; onChange: (next: EvotestSettings) => void }) {
  const num = (key: 'exploration' | 'childrenPerEpisode') => (e: Event) => {
    const n = Number((e.currentTarget as HTMLInputElement).value);
    if (Number.isFinite(n)) onChange({ ...value, [key]: n });
  };
  return (
    <fieldset>
      <legend>EvoTest: each site's configuration evolves between attempts</legend>
      <p class="help">{evotestDefinition.needsModel.description}</p>
      <div class="field field-checkbox">
        <label><input type="checkbox" checked={value.enabled} onChange={(e) => onChange({ ...value, enabled: e.currentTarget.checked })} /> Use EvoTest</label>
      </div>
      <div class="field field-checkbox">
        <label><input type="checkbox" checked={value.useModel} onChange={(e) => onChange({ ...value, useModel: e.currentTarget.checked })} /> Let the configured model evolve guidance and rules</label>
      </div>
      <div class="field field-number">
        <label for="opt-evotest-exploration">UCB exploration c</label>
        <input id="opt-evotest-exploration" type="number" step="any" min="0" max="5" value={value.exploration} onChange={num('exploration')} />
      </div>
      <div class="field field-number">
        <label for="opt-evotest-children">Children per episode</label>
        <input id="opt-evotest-children" type="number" step="1" min="1" max="4" value={value.childrenPerEpisode} onChange={num('childrenPerEpisode')} />
      </div>
    </fieldset>
  );
}
