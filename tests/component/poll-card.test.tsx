import { createRemixStub } from '@remix-run/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Poll } from '#contract/content';
import { closesIn, PollCard } from '~/components/poll-card';

const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

function poll(overrides: Partial<Poll> = {}): Poll {
  const showResults = overrides.showResults ?? false;
  return {
    _id: 'p1',
    enabled: true,
    title: 'Which city next?',
    answers: [
      { _id: 'a1', text: 'Lisbon', votes: showResults ? 3 : null },
      { _id: 'a2', text: 'Oslo', votes: showResults ? 1 : null },
    ],
    closesAt: null,
    closed: false,
    totalVotes: showResults ? 4 : null,
    votedAnswerId: null,
    showResults,
    ...overrides,
  };
}

/** The card on a page whose action records what each form sent. */
function renderCard(shown: Poll, errors?: string[]) {
  const sent: Record<string, string>[] = [];
  const Stub = createRemixStub([
    {
      path: '/',
      Component: () => <PollCard poll={shown} itemId="i1" errors={errors} />,
      action: async ({ request }) => {
        sent.push(Object.fromEntries((await request.formData()).entries()) as Record<string, string>);
        return null;
      },
    },
  ]);
  render(<Stub />);
  return { sent, card: () => screen.getByRole('region', { name: 'Which city next?' }) };
}

describe('poll card', () => {
  it('before a vote: the answers, "Vote", and when the poll closes', async () => {
    const user = userEvent.setup();
    const { sent, card } = renderCard(poll({ closesAt: inHours(3 * 24) }));
    expect(within(card()).getByText('Closes in 3 days')).toBeInTheDocument();
    expect(within(card()).getByRole('group', { name: 'Which city next?' })).toBeInTheDocument();
    await user.click(within(card()).getByLabelText('Oslo'));
    await user.click(within(card()).getByRole('button', { name: 'Vote' }));
    await screen.findByRole('button', { name: 'Vote' });
    expect(sent).toEqual([{ pollId: 'p1', itemId: 'i1', answerId: 'a2', intent: 'vote' }]);
  });

  it('after a vote: the results, and a disclosure to change the vote or remove it', async () => {
    const user = userEvent.setup();
    const { sent, card } = renderCard(poll({ showResults: true, votedAnswerId: 'a1', closesAt: inHours(5) }));
    expect(within(card()).getByText('Your vote')).toBeInTheDocument();
    expect(within(card()).getByText('4 votes')).toBeInTheDocument();
    expect(within(card()).getByText('Closes in 5 hours')).toBeInTheDocument();
    // Closed until asked for.
    expect(within(card()).queryByRole('button', { name: 'Change vote' })).not.toBeVisible();
    await user.click(within(card()).getByText('Changed your mind?'));
    expect(within(card()).getByRole('radio', { name: 'Lisbon' })).toBeChecked();
    await user.click(within(card()).getByRole('radio', { name: 'Oslo' }));
    await user.click(within(card()).getByRole('button', { name: 'Change vote' }));
    await user.click(await within(card()).findByRole('button', { name: 'Remove my vote' }));
    await within(card()).findByRole('button', { name: 'Remove my vote' });
    expect(sent.map(({ intent }) => intent)).toEqual(['vote', 'unvote']);
    expect(sent[0]).toMatchObject({ pollId: 'p1', answerId: 'a2' });
  });

  it('a refused change keeps the disclosure open with the message', () => {
    const { card } = renderCard(poll({ showResults: true, votedAnswerId: 'a1' }), ['Please choose an answer.']);
    expect(within(card()).getByRole('button', { name: 'Change vote' })).toBeVisible();
    expect(within(card()).getByText('Please choose an answer.')).toBeInTheDocument();
  });

  it('closed: "Closed" and the final results, for a fan who never voted too, with nothing to vote or change', () => {
    const { card } = renderCard(poll({ showResults: true, closed: true, closesAt: inHours(-2) }), [
      'This poll has closed, so votes can no longer be cast or changed.',
    ]);
    expect(within(card()).getByText('Closed')).toBeInTheDocument();
    expect(within(card()).getByText(/Final results/)).toBeInTheDocument();
    expect(within(card()).getByText('75%')).toBeInTheDocument();
    expect(within(card()).getByText('This poll has closed, so votes can no longer be cast or changed.')).toBeInTheDocument();
    expect(within(card()).queryByRole('button')).not.toBeInTheDocument();
    expect(within(card()).queryByText('Changed your mind?')).not.toBeInTheDocument();
  });

  it('the artist sees the results and when it closes, with no vote of their own to change', () => {
    const { card } = renderCard(poll({ showResults: true, closesAt: inHours(30) }));
    expect(within(card()).getByText('Closes in 30 hours')).toBeInTheDocument();
    expect(within(card()).queryByText('Changed your mind?')).not.toBeInTheDocument();
  });

  it('a poll that never closes says nothing about closing', () => {
    const { card } = renderCard(poll());
    expect(within(card()).queryByText(/Closes|Closed/)).not.toBeInTheDocument();
  });
});

describe('closesIn', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
  it('counts minutes, then hours, then days', () => {
    expect(closesIn(at(0.5), now)).toBe('Closes in less than a minute');
    expect(closesIn(at(1), now)).toBe('Closes in 1 minute');
    expect(closesIn(at(59), now)).toBe('Closes in 59 minutes');
    expect(closesIn(at(60), now)).toBe('Closes in 1 hour');
    expect(closesIn(at(47 * 60), now)).toBe('Closes in 47 hours');
    expect(closesIn(at(3 * 24 * 60 - 1), now)).toBe('Closes in 3 days');
  });
});
