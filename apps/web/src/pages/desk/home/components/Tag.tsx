import type { ReactNode } from 'react';

export type TagTone = 'default' | 'success' | 'info' | 'warning';

/** A small label (home.css `.slg-home-tag`). */
export default function Tag({ tone = 'default', icon, children }: { tone?: TagTone; icon?: ReactNode; children: ReactNode }) {
  return (
    <span className={tone === 'default' ? 'slg-home-tag' : `slg-home-tag slg-home-tag--${tone}`}>
      {icon}
      {children}
    </span>
  );
}
