/** One figure of a statistics list (`<dl>`): a title and a value with its unit, or a placeholder while loading. */
export default function Stat({ title, value, unit, loading = false }: { title: string; value: string | number; unit?: string; loading?: boolean }) {
  return (
    <div className="slg-home-stat">
      <dt>{title}</dt>
      <dd aria-busy={loading || undefined}>
        {loading ? (
          <span className="slg-home-skeleton-line slg-home-stat-placeholder" />
        ) : (
          <>
            {value}
            {unit ? <span className="slg-home-stat-unit">{unit}</span> : null}
          </>
        )}
      </dd>
    </div>
  );
}
