/** The per-site auto-approve switch, with what always waits for the person. */

export interface AutoApproveSwitchProps {
  origin: string;
  on: boolean;
  /** Settings not loaded yet. */
  disabled: boolean;
  onToggle(enabled: boolean): void;
}

export function AutoApproveSwitch({ origin, on, disabled, onToggle }: AutoApproveSwitchProps) {
  return (
    <div class="auto-approve">
      <label class="check">
        <input type="checkbox" checked={on} disabled={disabled} onChange={(e) => onToggle(e.currentTarget.checked)} aria-describedby="auto-help" />
        Auto-approve on {origin}
      </label>
      <p id="auto-help" class="help">
        Off by default. Even when on, sensitive actions always wait for you: typing into password or payment fields,
        submitting forms, going to another site, and downloads.
      </p>
    </div>
  );
}
