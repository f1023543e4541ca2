import { Link } from 'react-router';
import { config } from '../config';

/** The brand mark and name; links home. */
export function Logo({ to = '/', compact = false }: { to?: string; compact?: boolean }) {
  return (
    <Link to={to} className="slg-logo" aria-label={config.appTitle}>
      <svg width="28" height="28" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <rect width="64" height="64" rx="14" className="slg-logo-mark" />
        <path d="M18 40l14-22 14 22H18z" fill="none" stroke="#fff" strokeWidth="5" strokeLinejoin="round" />
        <circle cx="32" cy="33" r="4" fill="#fff" />
      </svg>
      {compact ? null : <span className="slg-logo-text">{config.appTitle}</span>}
    </Link>
  );
}
