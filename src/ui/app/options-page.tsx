/**
 * The options page: the model provider, the per-site ask modes and the actions that always ask first; under a closed Advanced
 * disclosure the policy, rewards and agent settings and a section per registry learner — all generated from the
 * settings schemas (labels are their `.describe()` texts), validated with the
 * same schemas the background uses before saving. No learner is named here:
 * a learner gets the generated form, or the view it registered in
 * SETTINGS_VIEWS.
 */
import type { ComponentType } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { LEARNERS } from '../../core/learning/registry/registry.ts';
import type { LearnerDefinition } from '../../core/learning/learner-definition.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { FieldInputs } from './field-input.tsx';
import { LearnerSettingsSections, learnerFieldLabels, type LearnerSettingsViewProps } from './learner-settings.tsx';
import { SETTINGS_VIEWS } from './learner-settings-views.tsx';
import { modelConfigured, ProviderFieldset } from './provider-fieldset.tsx';
import { CORE_GROUPS, CORE_LABELS } from './settings-groups.ts';
import { useOptionsForm, type OptionsMessage } from './use-options-form.ts';
import { ASK_MODES_PATH, SiteAskModes, siteRowLabels } from './site-ask-modes.tsx';
import { TeamMemorySettings } from './team-memory-panel.tsx';
import { ALWAYS_ASK_PATH, AlwaysAskList, markRowLabels } from './always-ask-list.tsx';

type SettingsViews = Readonly<Record<string, ComponentType<LearnerSettingsViewProps>>>;

export function OptionsPage({ client, learners = LEARNERS, views = SETTINGS_VIEWS }: {
  client: UiClient;
  learners?: readonly LearnerDefinition[];
  views?: SettingsViews;
}) {
  const generated = learners.filter((d) => !(d.id in views));
  const form = useOptionsForm(client, generated);
  const model = modelConfigured(form.provider);
  const labels = { ...CORE_LABELS, ...learnerFieldLabels(generated), ...siteRowLabels(form.sites), ...markRowLabels(form.marks) };
  const advanced = useRef<HTMLDetailsElement>(null);
  // A field to fix inside the closed disclosure would be invisible: open it (never close it for the person).
  const outside = ['provider.', `${ASK_MODES_PATH}.`, `${ALWAYS_ASK_PATH}.`];
  const advancedError = Object.keys(form.errors).some((path) => !outside.some((prefix) => path.startsWith(prefix)));
  useEffect(() => { if (advancedError && advanced.current) advanced.current.setAttribute('open', ''); }, [advancedError, form.errors]);
  return (
    <main class="options">
      <h1>Apprentice settings</h1>
      {form.loadError ? <p class="error" role="alert">Could not load the settings: {form.loadError}. Showing the defaults.</p> : null}
      {!form.loaded && !form.loadError ? <p role="status" class="loading"><span class="spinner" aria-hidden="true" /> Loading…</p> : null}
      <LoadNotes notes={form.loadNotes} />
      <form onSubmit={form.save} noValidate>
        <ProviderFieldset client={client} provider={form.provider} onChange={form.setProvider} disabled={form.busy !== null}
          error={(key) => form.errors[`provider.${key}`]} />
        <SiteAskModes rows={form.sites} errors={form.errors} disabled={form.busy !== null} onChange={form.setSites} />
        <AlwaysAskList rows={form.marks} errors={form.errors} disabled={form.busy !== null} onChange={form.setMarks} />
        {/* Research settings stay one click away (issue 31): closed until asked for. */}
        <details class="advanced" data-testid="advanced" ref={advanced}>
          <summary>Advanced: how Apprentice learns (policy, rewards, agent and each learner's settings)</summary>
          {CORE_GROUPS.map((group) => (
            <fieldset key={group.id}>
              <legend>{group.title}</legend>
              <FieldInputs fields={group.fields} values={form.values} errors={form.errors} onChange={form.setValue} />
            </fieldset>
          ))}
          {learners.map((definition) => {
            // In registry order: the learner's own view (saved at once) once the settings are loaded, else its generated section.
            const View = views[definition.id];
            if (!View) return <LearnerSettingsSections key={definition.id} registry={[definition]} values={form.values} errors={form.errors} modelConfigured={model} onChange={form.setValue} />;
            return form.loaded ? <View key={definition.id} definition={definition} settings={form.loaded} modelConfigured={model} save={(next) => form.saveLearner(definition.id, next)} /> : null;
          })}
        </details>
        <div class="row sticky-actions">
          <button type="submit" class="primary" disabled={form.busy !== null}>Save</button>
          <button type="button" disabled={form.busy !== null} onClick={form.reset}>Reset to defaults</button>
          {form.dirty ? <span class="unsaved" role="status" data-testid="unsaved">Unsaved changes</span> : null}
        </div>
        <SaveOutcome message={form.message} errors={form.errors} labels={labels} />
      </form>
      {/* Its own form and Save: the team server is not part of the settings object. */}
      <TeamMemorySettings client={client} />
    </main>
  );
}

/** What the background could not keep of the stored settings, said once after loading. */
function LoadNotes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <div class="notice" role="status">
      <p>Some stored settings were not valid and use their defaults until you save:</p>
      <ul aria-label="Settings reset on load">{notes.map((n) => <li key={n}>{n}</li>)}</ul>
    </div>
  );
}

function SaveOutcome({ message, errors, labels }: { message: OptionsMessage | null; errors: Record<string, string>; labels: Record<string, string> }) {
  return (
    <>
      {message ? <p class={message.kind === 'ok' ? 'notice' : 'error'} role={message.kind === 'ok' ? 'status' : 'alert'}>{message.text}</p> : null}
      {Object.keys(errors).length > 0 ? (
        <ul class="error" aria-label="Fields to fix">
          {Object.entries(errors).map(([path, msg]) => <li key={path}>{labels[path] ?? path}: {msg}</li>)}
        </ul>
      ) : null}
    </>
  );
}
