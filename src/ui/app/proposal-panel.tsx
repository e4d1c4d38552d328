/**
 * The step waiting for a decision: its context, Approve / Reject for the best
 * open candidate, "Run this instead" for the others, and (under a closed
 * disclosure) an edit field for the action form. While
 * it is shown, the targeted element is highlighted in the page.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Episode, StepRecord } from '../../core/episode/episode.ts';
import type { PanelDecision } from '../../core/agent/person-input.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { rankCandidates, refOfAction } from './format.ts';
import { CandidateList, StepContext } from './step-view.tsx';
import { actionWords } from './action-words.ts';
import { usePanelKeys } from './panel-keys.ts';
import { PickCorrection } from './pick-correction.tsx';
import { editProblem } from './pick-actions.ts';

export interface ProposalPanelProps {
  client: UiClient;
  tabId: number | null;
  episode: Episode;
  proposal: StepRecord;
  disabled: boolean;
  /** While the person teaches (Show me / Take over) the panel is not shown; the highlight stays. */
  hidden?: boolean;
  /** Sends the decision; errors go to `onError` (the panel's own for an edit). */
  decide(decision: PanelDecision, onError?: (message: string) => void): Promise<boolean>;
}

/** The step waiting for a decision, if any. */
export function pendingProposal(episode: Episode | null): StepRecord | null {
  if (!episode || episode.status !== 'awaiting_approval') return null;
  const last = episode.steps[episode.steps.length - 1];
  return last && last.chosen === null ? last : null;
}

export function ProposalPanel({ client, tabId, episode, proposal, disabled, hidden = false, decide }: ProposalPanelProps) {
  const [editText, setEditText] = useState('');
  const [editError, setEditError] = useState<string | null>(null);
  // Open once the person opens it, for the rest of the episode's proposals.
  const [editOpen, setEditOpen] = useState(false);
  const [focused, setFocused] = useState<number | null>(null);
  // "Pick an element": the picked element is outlined instead of the proposal's; nothing is outlined while the page points.
  const [pick, setPick] = useState<{ ref: string | null; picking: boolean }>({ ref: null, picking: false });

  const ranked = rankCandidates(proposal.candidates, proposal.selection !== undefined);
  // Rejected candidates stay listed (marked); Approve means the best one still open.
  const top = ranked.find((r) => !proposal.rejected.includes(r.candidate.semantic)) ?? null;
  const proposalKey = `${episode.id}:${proposal.index}:${proposal.rejected.length}:${proposal.candidates.length}`;
  const shown = focused !== null ? proposal.candidates[focused] ?? top?.candidate : top?.candidate;
  const highlightRef = pick.ref ?? (shown ? refOfAction(shown.action) : null);
  const approveButton = useRef<HTMLButtonElement>(null);
  const focusedFor = useRef<string | null>(null);

  // Prefill the edit field with the proposal, once per proposal, in the form that names the element
  // (issue 31: a ref such as [5] is not something the person can see).
  useEffect(() => {
    setEditText(top?.candidate.semantic ?? '');
    setEditError(null);
    setFocused(null);
  }, [proposalKey]);

  // A new proposal (or the next open one after a Reject) takes the focus: Enter or A approves it.
  // Once per proposal, as soon as the button can take it (not while a request is still under way).
  useEffect(() => {
    if (hidden || disabled || focusedFor.current === proposalKey || !approveButton.current) return;
    focusedFor.current = proposalKey;
    approveButton.current.focus();
  }, [proposalKey, hidden, disabled]);

  const approve = () => { if (top && !disabled) void decide({ kind: 'approve', step: proposal.index, candidate: top.candidate.semantic }); };
  const reject = () => { if (top && !disabled) void decide({ kind: 'reject', index: top.index, step: proposal.index, candidate: top.candidate.semantic }); };
  usePanelKeys({ a: approve, r: reject }, !hidden && !disabled && top !== null);

  // Highlight the targeted element while a proposal is shown; clear it after.
  useEffect(() => {
    if (tabId === null || pick.picking) return;
    client.request('page.highlight', { tabId, ref: highlightRef }).catch(() => { /* best-effort */ });
  }, [client, tabId, proposalKey, highlightRef, pick.picking]);
  useEffect(() => {
    if (tabId === null) return;
    return () => { client.request('page.highlight', { tabId, ref: null }).catch(() => { /* best-effort */ }); };
  }, [client, tabId, proposalKey]);

  async function submitEdit(e: Event) {
    e.preventDefault();
    const problem = editProblem(editText);
    setEditError(problem);
    if (problem !== null) return;
    await decide({ kind: 'edit', action: editText.trim(), step: proposal.index }, setEditError);
  }

  if (hidden) return null;
  return (
    <section class="proposal" aria-labelledby="proposal-heading">
      <h3 id="proposal-heading">Proposed step {proposal.index + 1}</h3>
      <StepContext step={proposal} />
      <div class="decision-bar" role="group" aria-label="Decision">
        <button type="button" class="primary" ref={approveButton} disabled={disabled || !top} aria-keyshortcuts="a" onClick={approve}>
          Approve{top ? <>: {actionWords(top.candidate.semantic)}</> : null} <kbd aria-hidden="true">A</kbd>
        </button>
        <button type="button" class="danger" disabled={disabled || !top} aria-keyshortcuts="r" onClick={reject}>
          Reject <kbd aria-hidden="true">R</kbd>
        </button>
      </div>
      <p class="help keys">Keys: <kbd>A</kbd> approve, <kbd>R</kbd> reject, <kbd>S</kbd> show me, <kbd>P</kbd> pick an element, <kbd>D</kbd> task is done (not while typing).</p>
      <CandidateList
        step={proposal}
        task={episode.task}
        current={top?.index ?? null}
        onFocusCandidate={setFocused}
        renderActions={(r) => r.index === top?.index || proposal.rejected.includes(r.candidate.semantic) ? null : (
          <button type="button" disabled={disabled} onClick={() => decide({ kind: 'pick', index: r.index, step: proposal.index, candidate: r.candidate.semantic })}>
            Run this instead<span class="visually-hidden"> ({r.candidate.semantic})</span>
          </button>
        )}
      />
      <PickCorrection
        client={client}
        tabId={tabId}
        disabled={disabled}
        proposalKey={proposalKey}
        onPicked={(ref, picking) => setPick({ ref, picking })}
        run={(action, onError) => decide({ kind: 'edit', action, step: proposal.index }, onError)}
      />
      {/* The action form is for those who know it (issue 31, Build 4): one click away, closed until asked for. */}
      <details class="edit-advanced" open={editOpen} onToggle={(e) => setEditOpen(e.currentTarget.open)}>
        <summary>Advanced: type the action</summary>
        <form class="edit-form" onSubmit={submitEdit}>
          <label for="edit-action">Edit the action</label>
          <input
            id="edit-action"
            type="text"
            value={editText}
            spellcheck={false}
            aria-invalid={editError ? 'true' : 'false'}
            aria-describedby={editError ? 'edit-error' : 'edit-help'}
            onInput={(e) => setEditText(e.currentTarget.value)}
          />
          <button type="submit" disabled={disabled}>Run edited</button>
          <p id="edit-help" class="help">For those who know the action form: <code>click(&lt;button "Sign in"&gt;)</code>. Checked before it runs. Otherwise use Pick an element or Show me.</p>
          {editError ? <p id="edit-error" class="error" role="alert">{editError}</p> : null}
        </form>
      </details>
    </section>
  );
}
