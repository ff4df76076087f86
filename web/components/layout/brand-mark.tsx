/** The Digi Library mark: an open book. Decorative; the brand text beside it carries the name. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#1e3a8a" />
      <path d="M8 9h7a3 3 0 0 1 3 3v12a3 3 0 0 0-3-3H8z" fill="#fff" />
      <path d="M24 9h-4a3 3 0 0 0-2 1v14a3 3 0 0 1 2-1h4z" fill="#fbbf24" />
    </svg>
  );
}
