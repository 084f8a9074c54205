/** The Stagedoor logo: the yellow door symbol beside the white wordmark image. */
export function Logo({ className = 'h-7' }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <img src="/images/logo-symbol.svg" alt="" className="h-full w-auto" width={32} height={32} />
      <img src="/images/wordmark-white.svg" alt="Stagedoor" className="h-[62%] w-auto" width={160} height={33} />
    </span>
  );
}
