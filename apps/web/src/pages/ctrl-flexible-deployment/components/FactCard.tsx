import type { ReactNode } from 'react';

export interface Fact {
  label: string;
  value: ReactNode;
}

/** A row of a list as a card (phone width): a head, label / value facts, and the row's actions. */
export function FactCard({ label, head, facts, actions }: { label: string; head: ReactNode; facts: readonly Fact[]; actions?: ReactNode }) {
  return (
    <article className="slg-elastic-card" aria-label={label}>
      <div className="slg-elastic-card-head">{head}</div>
      <dl className="slg-elastic-facts">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      {actions}
    </article>
  );
}
