/**
 * What the options page says about a provider: the result of *Test
 * connection* (with the help for the common walls: the exact OLLAMA_ORIGINS
 * value, the server's models to pick from) and whether this device can run
 * Chrome's built-in model.
 */
import { useEffect, useState } from 'preact/hooks';
import { builtInLanguageModel, builtInModelStatus, type BuiltInModelStatus } from '../../adapters/chrome-ai/prompt-api-model.ts';
import type { ProviderTestResult } from '../../protocol/messages.ts';

/** The exact `OLLAMA_ORIGINS=…` setting named in a failed test, to show as code. */
export const ollamaOriginsIn = (message: string): string | null => /OLLAMA_ORIGINS=\S+?(?=[\s.]*(?:\s|$))/.exec(message)?.[0] ?? null;

export function ProviderTestReport({ test, onUseModel }: { test: ProviderTestResult; onUseModel: (model: string) => void }) {
  const originsFix = test.ok ? null : ollamaOriginsIn(test.message);
  return (
    <div class={test.ok && test.json !== false ? 'notice' : 'error'} role="status" data-testid="provider-test">
      <p>{test.ok ? 'Connected' : 'Not connected'}{test.model ? ` to ${test.model}` : ''} ({Math.round(test.latencyMs)} ms).</p>
      {/* Only a connection that worked can say anything about logprobs or JSON (issue 31). */}
      {test.ok ? <p>Token logprobs: <strong>{test.logprobs ? 'available' : 'not available (verbalized confidences will be used)'}</strong></p> : null}
      {test.ok && test.json !== undefined ? <p>JSON answers: <strong>{test.json ? 'yes' : 'no: steps will fail with this model as it is set up'}</strong></p> : null}
      {test.message ? <p>{test.message}</p> : null}
      {originsFix ? <p>Set this in Ollama's environment, then restart Ollama: <code data-testid="ollama-origins">{originsFix}</code></p> : null}
      {test.models?.length ? (
        <div>
          <p>Models on this server:</p>
          <ul class="model-list" aria-label="Models on this server">
            {test.models.map((m) => (
              <li key={m}><button type="button" onClick={() => onUseModel(m)}>Use {m}</button></li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** Checked where the Prompt API lives: in this extension page. */
export function BuiltInModelNotice() {
  const [status, setStatus] = useState<BuiltInModelStatus | null>(null);
  useEffect(() => {
    let live = true;
    void builtInModelStatus(builtInLanguageModel()).then((s) => {
      if (live) setStatus(s);
    });
    return () => {
      live = false;
    };
  }, []);
  const unsupported = status !== null && (status.availability === 'unavailable' || status.availability === 'missing');
  return (
    <p class={unsupported ? 'error' : 'help'} role="status" data-testid="builtin-status">
      {status ? status.message : "Checking whether this device can run Chrome's built-in model…"}
    </p>
  );
}
