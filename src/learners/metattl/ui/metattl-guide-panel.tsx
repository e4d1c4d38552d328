/**
 * The Run tab's Meta-TTL block: asks the background for the guide record of
 * the task on this site and shows it with MetaTtlGuideView. Hidden while
 * Meta-TTL is switched off and nothing was learned; otherwise it says why it
 * is idle (no model) or shows the guide in force, its history, edit and reset.
 */
import { useEffect, useState } from 'preact/hooks';
import type { GuideRecord } from '../core/guide-record.ts';
import { SWITCHED_OFF } from '../core/guide-adaptation.ts';
import { METATTL_ACTIONS } from '../core/actions.ts';
import { metattlDefinition } from '../definition.ts';
import { callLearner } from '../../../ui/app/learner-action.ts';
import type { UiClient } from '../../../protocol/validate.ts';
import type { Episode } from '../../../core/episode/episode.ts';
import { errorText } from '../../../ui/app/format.ts';
import { MetaTtlGuideView } from './metattl-guide-view.tsx';

export interface MetaTtlGuidePanelProps {
  client: UiClient;
  origin: string;
  task: string;
  /** Changes when an attempt ends, so the guide the meta-agent just wrote is read again. */
  refreshKey: string;
}

export function MetaTtlGuidePanel({ client, origin, task, refreshKey }: MetaTtlGuidePanelProps) {
  const [state, setState] = useState<{ record: GuideRecord | null; inactiveReason: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    callLearner(client, metattlDefinition, METATTL_ACTIONS, 'guide', { origin, task }).then(
      (r) => { if (live) { setState(r); setError(null); } },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, origin, task, refreshKey]);

  // Best-effort, like learning itself: a failed read is said quietly, not as an alert over the run.
  if (error) return <p class="muted small">Could not read the Meta-TTL guide: {error}</p>;
  if (!state || (state.inactiveReason === SWITCHED_OFF && !state.record?.guide)) return null;
  return (
    <MetaTtlGuideView
      record={state.record}
      inactiveReason={state.inactiveReason}
      onSave={async (text) => {
        const { record } = await callLearner(client, metattlDefinition, METATTL_ACTIONS, 'editGuide', { origin, task, text });
        setState({ ...state, record });
      }}
      onReset={async () => {
        const { record } = await callLearner(client, metattlDefinition, METATTL_ACTIONS, 'resetGuide', { origin, task });
        setState({ ...state, record });
      }}
    />
  );
}

/** Meta-TTL's entry in EPISODE_PANELS: the guide in force for the episode's task. */
export function MetaTtlEpisodePanel({ client, episode }: { client: UiClient; episode: Episode }) {
  return <MetaTtlGuidePanel client={client} origin={episode.origin} task={episode.task} refreshKey={`${episode.id}:${episode.status}`} />;
}
