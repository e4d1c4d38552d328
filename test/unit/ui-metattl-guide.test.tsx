// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyGuideRecord, replaceGuide, type GuideRecord } from '../../src/core/learning/metattl/guide-record.ts';
import { MetaTtlGuideView } from '../../src/ui/app/metattl-guide-view.tsx';

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
