import { StepList } from './subscribe-steps';

/** The first-run setup's four steps, above each of its pages. */
export function SetupSteps({ current }: { current: 1 | 2 | 3 | 4 }) {
  return (
    <StepList
      steps={['Your account', 'Your club', 'Your art', 'Payouts']}
      current={current}
      label="Steps to set up"
      className="mb-8 border-b border-white/10 pb-6"
    />
  );
}
