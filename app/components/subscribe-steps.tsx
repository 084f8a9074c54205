/** A numbered list of a journey's steps, the current one marked and those before it ticked. */
export function StepList({
  steps,
  current,
  label,
  className = '',
}: {
  steps: readonly string[];
  current: number;
  label: string;
  className?: string;
}) {
  return (
    <ol className={`space-y-3 ${className}`} aria-label={label}>
      {steps.map((step, index) => {
        const number = index + 1;
        const done = number < current;
        const active = number === current;
        return (
          <li key={step} className="flex items-center gap-3" aria-current={active ? 'step' : undefined}>
            <span
              className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                active ? 'bg-accent text-navy' : done ? 'bg-white/80 text-navy' : 'bg-white/10 text-white/80 ring-1 ring-white/30'
              }`}
              aria-hidden="true"
            >
              {done ? '✓' : number}
            </span>
            <span className={`text-base ${active ? 'font-semibold text-white' : 'text-white/75'}`}>
              {step}
              {done ? <span className="sr-only"> (done)</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** The two steps of subscribing (an account first, then the payment), with the current one marked. */
export function SubscribeSteps({ current, className = '' }: { current: 1 | 2; className?: string }) {
  return <StepList steps={['Create your account', 'Pay securely']} current={current} label="Steps to join" className={className} />;
}
