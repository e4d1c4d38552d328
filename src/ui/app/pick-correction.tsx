/**
 * "Pick an element" (issue 31): the person corrects the proposal by pointing.
 * The page outlines what is under the pointer; a click there picks it (Escape
 * in the page, or Cancel here, gives up). The panel then offers the actions
 * that fit the element (click, type, choose, tick) with a value field when
 * one is needed, and runs the choice as an edit on that element's ref.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { UiClient } from '../../protocol/validate.ts';
import { targetWords } from '../../core/page/target-words.ts';
import { errorText } from './format.ts';
import { pickChoices, pickedAction, type Picked, type PickVerb } from './pick-actions.ts';
import { usePanelKeys } from './panel-keys.ts';

export interface PickCorrectionProps {
  client: UiClient;
  tabId: number | null;
  disabled: boolean;
  /** Resets the pick when the proposal changes. */
  proposalKey: string;
  /** The picked element's ref while one is picked (the panel outlines it), null otherwise; `picking` while the page points. */
  onPicked(ref: string | null, picking: boolean): void;
  /** Runs the picked action (an edit decision); errors come back through `onError`. */
  run(action: string, onError: (message: string) => void): Promise<boolean>;
}

type State = { kind: 'idle'; note?: string } | { kind: 'picking' } | { kind: 'picked'; picked: Picked };

export function PickCorrection({ client, tabId, disabled, proposalKey, onPicked, run }: PickCorrectionProps) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [verb, setVerb] = useState<PickVerb>('click');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const firstChoice = useRef<HTMLInputElement>(null);
  const picking = state.kind === 'picking';

  // A new proposal starts afresh; a pick still under way in the page is cancelled.
  useEffect(() => {
    setState({ kind: 'idle' });
    setError(null);
    return () => { if (tabId !== null) client.request('page.pick', { tabId, on: false }).catch(() => { /* best-effort */ }); };
  }, [proposalKey]);
  useEffect(() => {
    onPicked(state.kind === 'picked' ? state.picked.ref : null, picking);
  }, [state]);
  useEffect(() => { if (state.kind === 'picked') firstChoice.current?.focus(); }, [state]);

  async function start() {
    if (tabId === null) return;
    setError(null);
    setState({ kind: 'picking' });
    try {
      const result = await client.request('page.pick', { tabId, on: true });
      if (!result.picked) {
        if (result.reason === 'cancelled') setState({ kind: 'idle', note: 'Picking cancelled.' });
        return;
      }
      const choices = pickChoices(result);
      setVerb(choices[0]!.verb);
      setValue(choices[0]!.verb === 'select_option' ? result.options?.[0] ?? '' : '');
      setState({ kind: 'picked', picked: result });
    } catch (err) {
      setState({ kind: 'idle' });
      setError(`Could not pick in the page: ${errorText(err)}`);
    }
  }
  const cancel = () => {
    if (tabId !== null) client.request('page.pick', { tabId, on: false }).catch(() => { /* best-effort */ });
    setState({ kind: 'idle', note: 'Picking cancelled.' });
  };

  usePanelKeys({ p: () => void start() }, !disabled && tabId !== null && state.kind === 'idle');

  const errorLine = error ? <p id="pick-error" class="error" role="alert">{error}</p> : null;
  if (state.kind === 'picked') {
    const { picked } = state;
    const choices = pickChoices(picked);
    const choice = choices.find((c) => c.verb === verb) ?? choices[0]!;
    const submit = async (e: Event) => {
      e.preventDefault();
      setError(null);
      if (choice.valueLabel && value === '' && choice.verb === 'select_option') return setError('Choose an option first.');
      await run(pickedAction(picked, choice.verb, value), setError);
    };
    return (
      <form class="pick-correction" aria-labelledby="pick-heading" onSubmit={submit}>
        <h4 id="pick-heading">Picked: <span class="picked-target">{targetWords(picked.target)}</span></h4>
        <fieldset>
          <legend>What to do with it</legend>
          {choices.map((c, i) => (
            <label key={c.verb} class="check">
              <input {...(i === 0 ? { ref: firstChoice } : {})} type="radio" name="pick-verb" value={c.verb} checked={c.verb === choice.verb} onChange={() => setVerb(c.verb)} />
              {c.label}
            </label>
          ))}
        </fieldset>
        {choice.verb === 'fill' ? (
          <p class="field">
            <label for="pick-value">{choice.valueLabel}</label>
            <input id="pick-value" type="text" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
          </p>
        ) : null}
        {choice.verb === 'select_option' ? (
          <p class="field">
            <label for="pick-value">{choice.valueLabel}</label>
            <select id="pick-value" value={value} onChange={(e) => setValue(e.currentTarget.value)}>
              {(picked.options ?? []).map((o) => <option key={o} value={o}>{o}</option>)}
            </select>
          </p>
        ) : null}
        <div class="decision-bar">
          <button type="submit" class="primary" disabled={disabled}>Run on this element</button>
          <button type="button" disabled={disabled} onClick={start}>Pick again</button>
          <button type="button" onClick={() => setState({ kind: 'idle' })}>Cancel</button>
        </div>
        {errorLine}
      </form>
    );
  }
  return (
    <div class="pick-start" role="group" aria-label="Correct by pointing">
      {picking ? (
        <>
          <p role="status" aria-live="polite">Click the element in the page. Escape in the page cancels.</p>
          <button type="button" onClick={cancel}>Cancel picking</button>
        </>
      ) : (
        <>
          <button type="button" disabled={disabled || tabId === null} aria-keyshortcuts="p" onClick={start}>
            Pick an element <kbd aria-hidden="true">P</kbd>
          </button>
          <p class="help">Point at the right element in the page instead of the proposal; then choose what to do with it.</p>
          {state.kind === 'idle' && state.note ? <p role="status">{state.note}</p> : null}
        </>
      )}
      {errorLine}
    </div>
  );
}
