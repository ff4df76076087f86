/**
 * `npm run audit`: fails when a production dependency has a high or critical advisory
 * (`npm audit --omit=dev`). `.ci/run` runs it before the tests.
 *
 * When the registry's advisory service does not answer (a mirror without it, no network), the
 * check cannot be made: it says so loudly and passes, since an unknown is not a finding, unless
 * AUDIT_REQUIRED=true makes that a failure too.
 */
import { spawnSync } from 'node:child_process';

interface AuditReport {
  metadata?: { vulnerabilities?: Record<string, number> };
  vulnerabilities?: Record<string, { severity: string; via: unknown[]; fixAvailable: unknown }>;
  statusCode?: number;
  message?: string;
}

const result = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8' });
let report: AuditReport | undefined;
try {
  report = JSON.parse(result.stdout) as AuditReport;
} catch {
  report = undefined;
}

const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const why = report?.message ?? (result.stderr.trim().split('\n').at(-1) || 'no answer');
  console.log(`[audit] NOT CHECKED: the registry's advisory service did not answer (${why}).`);
  process.exitCode = process.env.AUDIT_REQUIRED === 'true' ? 1 : 0;
} else {
  const serious = Object.entries(report?.vulnerabilities ?? {}).filter(([, entry]) =>
    ['high', 'critical'].includes(entry.severity),
  );
  for (const [name, entry] of serious) {
    console.log(
      `[audit] ${entry.severity}: ${name} (fix available: ${JSON.stringify(entry.fixAvailable)})`,
    );
  }
  console.log(
    `[audit] production dependencies: ${counts.critical ?? 0} critical, ${counts.high ?? 0} high, ${counts.moderate ?? 0} moderate, ${counts.low ?? 0} low`,
  );
  process.exitCode = serious.length > 0 ? 1 : 0;
}
