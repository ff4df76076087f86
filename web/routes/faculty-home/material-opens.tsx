import { INSIGHTS_MIN_PEOPLE } from '#contract/http/insights.ts';
import { useMyMaterialOpens } from '../../api/insights.ts';
import styles from './my-materials.module.css';

/**
 * How often each of the caller's published course materials was opened in the reader, per week
 * of the last year; a material no day of which had 5 different people open it says only "fewer
 * than 5", so a count never points at one student.
 */
export function MaterialOpensSection() {
  const opens = useMyMaterialOpens();
  if (!opens.data || opens.data.materials.length === 0) return null;
  return (
    <section className={`container ${styles.section}`} aria-labelledby="material-opens-title">
      <h2 id="material-opens-title" className={styles.title}>
        How often your materials were opened
      </h2>
      <p className={styles.note}>
        Opens in the reader per week, over the last 12 months. Counted without recording who.
      </p>
      <ul className={styles.list}>
        {opens.data.materials.map((material) => {
          const total = material.weeks?.reduce((sum, week) => sum + week.opens, 0) ?? 0;
          return (
            <li key={material.itemId} className={styles.item}>
              <span className={styles.itemTitle}>{material.title}</span>
              {material.weeks === null ? (
                <span className={styles.note}>
                  Opened by fewer than {INSIGHTS_MIN_PEOPLE} people
                </span>
              ) : (
                <details>
                  <summary>
                    {total} open{total === 1 ? '' : 's'} in {material.weeks.length} week
                    {material.weeks.length === 1 ? '' : 's'}
                  </summary>
                  <table>
                    <caption className="visually-hidden">
                      Opens of {material.title} per week
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Week from</th>
                        <th scope="col">Opens</th>
                      </tr>
                    </thead>
                    <tbody>
                      {material.weeks.map((week) => (
                        <tr key={week.week}>
                          <th scope="row">{week.week}</th>
                          <td>{week.opens}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </details>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
