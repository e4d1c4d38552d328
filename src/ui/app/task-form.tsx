/** The task field and Start button of the Run tab: Enter starts, Shift+Enter adds a line (issue 31). */

export interface TaskFormProps {
  task: string;
  onTask(task: string): void;
  onStart(e: Event): void;
  /** No tab to work in: the field is disabled. */
  noTab: boolean;
  disabled: boolean;
  /** An earlier episode ended in this tab: the button says "Start again". */
  again: boolean;
}

export function TaskForm({ task, onTask, onStart, noTab, disabled, again }: TaskFormProps) {
  return (
    <form class="task-form" onSubmit={onStart}>
      <label for="task-input">Task for this tab</label>
      <textarea
        id="task-input"
        rows={2}
        value={task}
        placeholder="e.g. Sign up with the email me@example.com"
        onInput={(e) => onTask(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Shift+Enter is a new line; an IME's Enter confirms its text.
          if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
          e.preventDefault();
          if (!disabled && task.trim() !== '') onStart(e);
        }}
        aria-describedby="task-keys"
        disabled={noTab}
      />
      <p id="task-keys" class="help"><kbd>Enter</kbd> starts · <kbd>Shift</kbd>+<kbd>Enter</kbd> adds a line</p>
      <button type="submit" class="primary" disabled={noTab || disabled || task.trim() === ''}>
        {again ? 'Start again' : 'Start'}
      </button>
    </form>
  );
}
