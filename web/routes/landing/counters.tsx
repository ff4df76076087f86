import { COUNTER_DURATION_MS, LANDING_COUNTERS } from '../../../contract/limits.ts';
import { useCountUp } from '../../hooks/use-count-up.ts';
import styles from './landing.module.css';

function Counter({ target, suffix, label }: { target: number; suffix: string; label: string }) {
  const value = useCountUp(target, COUNTER_DURATION_MS);
  return (
    <li className={styles.counter}>
      {/* The moving number is hidden from screen readers, which get the final figure once. */}
      <span className={styles.counterValue} aria-hidden="true" data-counter={label}>
        {value}
        {suffix}
      </span>
      <span className="visually-hidden">
        {target}
        {suffix}
      </span>{' '}
      <span className={styles.counterLabel}>{label}</span>
    </li>
  );
}

/** The three landing counters, animating from 0 to 10K+, 5K+ and 100+ over two seconds. */
export function Counters() {
  return (
    <ul className={styles.counters} aria-label="The library in numbers">
      {LANDING_COUNTERS.map((counter) => (
        <Counter key={counter.label} {...counter} />
      ))}
    </ul>
  );
}
