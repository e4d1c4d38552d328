/** Catches render errors so a fault shows a message and a way back, never a blank panel. */
import { Component, type ComponentChildren } from 'preact';
import { errorText } from './format.ts';

interface Props { children: ComponentChildren; label?: string }
interface State { error: unknown }

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static override getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    console.error('[apprentice] UI error', error);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <div class="error-boundary" role="alert">
        <p><strong>{this.props.label ?? 'This view'} hit an error.</strong></p>
        <p>{errorText(this.state.error)}</p>
        <button type="button" onClick={() => this.setState({ error: null })}>Try again</button>
      </div>
    );
  }
}
