import { useLibraryInfo } from '../../api/library.ts';
import styles from './layout.module.css';

/** Footer: the library's name, address, contacts, opening hours and social links (from the server's configuration). */
export function Footer({ hidden = false }: { hidden?: boolean }) {
  const { data: library, isError } = useLibraryInfo();

  return (
    <footer className={styles.footer} hidden={hidden}>
      <div className="container">
        {library ? (
          <div className={styles.footerGrid}>
            <section aria-labelledby="footer-library">
              <h2 id="footer-library">{library.name}</h2>
              <address>
                <p className={styles.footerMuted}>{library.address}</p>
                <p>
                  Phone: <a href={`tel:${library.phone.replace(/[^+\d]/g, '')}`}>{library.phone}</a>
                  <br />
                  E-mail: <a href={`mailto:${library.email}`}>{library.email}</a>
                </p>
              </address>
            </section>
            <section aria-labelledby="footer-hours">
              <h2 id="footer-hours">Opening hours</h2>
              <ul className={styles.footerList}>
                {/* The lines come from configuration and may repeat ("Closed"). */}
                {library.hours.map((line, index) => (
                  <li key={`${index}:${line}`}>{line}</li>
                ))}
              </ul>
              <p className={styles.footerMuted}>{library.hoursNote}</p>
            </section>
            <section aria-labelledby="footer-social">
              <h2 id="footer-social">Follow us</h2>
              <ul className={styles.socialList}>
                {library.social.map((link) => (
                  <li key={link.network}>
                    <a href={link.url} target="_blank" rel="noopener noreferrer">
                      {link.label}
                      <span className="visually-hidden"> (opens in a new tab)</span>
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          </div>
        ) : isError ? (
          <p>Digi Library: contact details could not be loaded. Please reload the page.</p>
        ) : (
          <p className={styles.footerMuted} aria-busy="true">
            Loading library details…
          </p>
        )}
        <p className={`${styles.footerBottom} ${styles.footerMuted}`}>
          © {new Date().getFullYear()} {library?.name ?? 'Digi Library'}. Academic resources for
          everyone on campus.
        </p>
      </div>
    </footer>
  );
}
