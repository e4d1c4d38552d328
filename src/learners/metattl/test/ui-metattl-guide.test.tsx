// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyGuideRecord, replaceGuide, type GuideRecord } from '../core/guide-record.ts';
import { MetaTtlGuideView } from '../ui/metattl-guide-view.tsx';

afterEach(cleanup);

function record(): GuideRecord {
  let r = emptyGuideRecord('k', 'http://shop.test', 'Buy a kettle', 1);
  r = { ...r, attempts: 2 };
  r = replaceGuide(r, { guide: 'First guide', diagnosis: 'Clicked Home twice.', afterAttempt: 1, outcome: 'failure', now: 2 });
  return replaceGuide(r, { guide: 'Second guide', diagnosis: 'Reached the cart.', afterAttempt: 2, outcome: 'success', now: 3 });
}

describe('Meta-TTL guide view', () => {
  it('shows the guide in force and its history, newest first', async () => {
    render(<MetaTtlGuideView record={record()} inactiveReason={null} onSave={async () => {}} onReset={async () => {}} />);
    expect(screen.getAllByText('Second guide')[0]).toBeVisible();
    expect(screen.getByText(/written by the meta-agent · attempts seen: 2/)).toBeInTheDocument();
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('after attempt 2 (success)');
    expect(items[0]).toHaveTextContent('Diagnosis: Reached the cart.');
    expect(items[1]).toHaveTextContent('First guide');
  });

  it('lets the person edit and reset the guide', async () => {
    const saved: string[] = [];
    let resets = 0;
    const user = userEvent.setup();
    render(<MetaTtlGuideView record={record()} inactiveReason={null} onSave={async (t) => { saved.push(t); }} onReset={async () => { resets++; }} />);
    await user.click(screen.getByRole('button', { name: 'Edit guide' }));
    const box = screen.getByRole('textbox', { name: /Guide for the next attempt/ });
    expect(box).toHaveValue('Second guide');
    await user.clear(box);
    await user.type(box, 'Use the search box.');
    await user.click(screen.getByRole('button', { name: 'Save guide' }));
    expect(saved).toEqual(['Use the search box.']);
    await user.click(screen.getByRole('button', { name: 'Reset guide' }));
    expect(resets).toBe(1);
  });

  it('says plainly when it needs a model, and shows a failed save', async () => {
    const user = userEvent.setup();
    render(<MetaTtlGuideView record={null} inactiveReason="Meta-TTL needs a model." onSave={async () => { throw new Error('store is full'); }} onReset={async () => {}} />);
    expect(screen.getByRole('status')).toHaveTextContent('Meta-TTL needs a model.');
    expect(screen.getByText(/No guide yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset guide' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Edit guide' }));
    await user.type(screen.getByRole('textbox'), 'x');
    await user.click(screen.getByRole('button', { name: 'Save guide' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('store is full');
  });
});

describe('Meta-TTL guide panel (through the typed protocol)', () => {
  it('reads the guide for the task, saves an edit and a reset through the background', async () => {
    const { MetaTtlGuidePanel } = await import('../ui/metattl-guide-panel.tsx');
    const { fakeConnector, learnerActions } = await import('../../../../test/unit/ui-fake-connector.ts');
    const { editGuide, resetGuide } = await import('../core/guide-record.ts');
    let stored = record();
    const fake = fakeConnector({
      'learner.action': learnerActions({ metattl: {
        guide: async () => ({ record: stored, inactiveReason: null }),
        editGuide: async ({ text }: { text: string }) => ({ record: (stored = editGuide(stored, text, 10)) }),
        resetGuide: async () => ({ record: (stored = resetGuide(stored, 11)) }),
      } }),
    });
    const user = userEvent.setup();
    render(<MetaTtlGuidePanel client={fake.connector.client} origin="http://shop.test" task="Buy a kettle" refreshKey="e1:success" />);
    expect((await screen.findAllByText('Second guide'))[0]).toBeVisible();
    expect(fake.actionCalls('metattl', 'guide')).toEqual([{ origin: 'http://shop.test', task: 'Buy a kettle' }]);
    await user.click(screen.getByRole('button', { name: 'Edit guide' }));
    await user.clear(screen.getByRole('textbox'));
    await user.type(screen.getByRole('textbox'), 'Mine.');
    await user.click(screen.getByRole('button', { name: 'Save guide' }));
    expect(await screen.findByText(/edited by you · attempts seen/)).toBeInTheDocument();
    expect(fake.actionCalls('metattl', 'editGuide')).toEqual([{ origin: 'http://shop.test', task: 'Buy a kettle', text: 'Mine.' }]);
    await user.click(screen.getByRole('button', { name: 'Reset guide' }));
    expect(await screen.findByText(/No guide yet \(reset\)/)).toBeInTheDocument();
  });

  it('stays hidden while Meta-TTL is switched off and nothing was learned', async () => {
    const { MetaTtlGuidePanel } = await import('../ui/metattl-guide-panel.tsx');
    const { fakeConnector, learnerActions } = await import('../../../../test/unit/ui-fake-connector.ts');
    const { SWITCHED_OFF } = await import('../core/guide-adaptation.ts');
    const fake = fakeConnector({ 'learner.action': learnerActions({ metattl: { guide: async () => ({ record: null, inactiveReason: SWITCHED_OFF }) } }) });
    const { container } = render(<MetaTtlGuidePanel client={fake.connector.client} origin="http://shop.test" task="t" refreshKey="x" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.actionCalls('metattl', 'guide')).toHaveLength(1);
    expect(container).toBeEmptyDOMElement();
  });
});
