import { render } from 'preact';

render(<main><h1>Apprentice</h1></main>, document.getElementById('app')!);
