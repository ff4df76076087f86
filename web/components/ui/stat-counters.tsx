import { COUNTER_DURATION_MS } from '#contract/limits.ts';
import { useCountUp } from '../../hooks/use-count-up.ts';
import styles from './stat-counters.module.css';

/** One animated figure: counts from 0 to `target`, shown as `{target formatted}{suffix}`. */
export interface Stat {
  target: number;
  suffix: string;
  label: string;
}

const format = (value: number) => value.toLocaleString('en-US');

function Counter({ target, suffix, label }: Stat) {
  const value = useCountUp(target, COUNTER_DURATION_MS);
  return (
    <li className={styles.counter}>
      {/* The moving number is hidden from screen readers, which get the final figure once. */}
      <span className={styles.value} aria-hidden="true" data-counter={label}>
        {format(value)}
        {suffix}
      </span>
      <span className="visually-hidden">
        {format(target)}
        {suffix}
      </span>{' '}
      <span className={styles.label}>{label}</span>
    </li>
  );
}

/** A row of figures that animate from 0 to their targets over two seconds. */
export function StatCounters({
  stats,
  label,
  className,
}: {
  stats: readonly Stat[];
  label: string;
  className?: string;
}) {
  return (
    <ul className={[styles.counters, className].filter(Boolean).join(' ')} aria-label={label}>
      {stats.map((stat) => (
        <Counter key={stat.label} {...stat} />
      ))}
    </ul>
  );
}
