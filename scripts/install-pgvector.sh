#!/usr/bin/env bash
# Installs pgvector (the `vector` extension, for search by meaning: decision 036) into Debian's
# newest installed PostgreSQL, when it lacks it. Debian 12 ships no pgvector for its PostgreSQL 15,
# so this builds the one of Debian trixie from its source package, against the installed server.
#
#   scripts/install-pgvector.sh           install when missing (asks sudo for what needs root)
#   scripts/install-pgvector.sh --check   only say whether it is installed (exit 0) or not (exit 1)
#
# `.ci/run` calls it on a fresh machine; `npm test` names it when PostgreSQL has no pgvector.
# On failure it prints the tail of its log and exits 1.
set -euo pipefail

log=/tmp/install-pgvector.log
trixie_source=/etc/apt/sources.list.d/ci-trixie-src.sources

# The newest PostgreSQL with an initdb, as the test runner picks it (scripts/lib/postgres-cluster.ts).
initdb=$(compgen -G '/usr/lib/postgresql/*/bin/initdb' | sort -V | tail -n 1 || true)
if [ -z "$initdb" ]; then
  echo "install-pgvector: PostgreSQL is not installed (apt-get install -y postgresql)"
  exit 1
fi
major=$(basename "$(dirname "$(dirname "$initdb")")")
pg_config=/usr/lib/postgresql/$major/bin/pg_config

if [ -f "/usr/share/postgresql/$major/extension/vector.control" ]; then
  echo "install-pgvector: pgvector is installed for PostgreSQL $major"
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  echo "install-pgvector: pgvector is not installed for PostgreSQL $major"
  exit 1
fi

sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
workdir=$(mktemp -d)

finish() {
  local status=$?
  # Nothing else may ever come from trixie: the source list goes whatever happened.
  if [ -f "$trixie_source" ]; then
    $sudo_cmd rm -f "$trixie_source"
    $sudo_cmd apt-get update -qq >> "$log" 2>&1 || true
  fi
  rm -rf "$workdir"
  if [ "$status" -ne 0 ]; then
    tail -n 20 "$log"
    echo "install-pgvector: could not install pgvector for PostgreSQL $major (log: $log)"
  fi
  exit "$status"
}
trap finish EXIT

echo "install-pgvector: building pgvector for PostgreSQL $major from Debian trixie's source (log: $log)"
: > "$log"
$sudo_cmd tee "$trixie_source" > /dev/null << 'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
$sudo_cmd apt-get update -qq >> "$log" 2>&1
# The server's headers and PGXS (this may upgrade the installed PostgreSQL to its latest minor release).
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq \
  "postgresql-server-dev-$major" make gcc >> "$log" 2>&1
(cd "$workdir" && apt-get source --download-only pgvector) >> "$log" 2>&1
tar -xzf "$workdir"/pgvector_*.orig.tar.gz -C "$workdir" >> "$log" 2>&1
sources=$(find "$workdir" -mindepth 1 -maxdepth 1 -type d | head -n 1)
# OPTFLAGS="": no -march=native, so the build runs on any machine of the architecture;
# with_llvm=no: no JIT bitcode, which would need clang of the server's own LLVM version.
(
  cd "$sources"
  make PG_CONFIG="$pg_config" OPTFLAGS="" with_llvm=no
  $sudo_cmd make install PG_CONFIG="$pg_config" OPTFLAGS="" with_llvm=no
) >> "$log" 2>&1
test -f "/usr/share/postgresql/$major/extension/vector.control"
echo "install-pgvector: pgvector installed for PostgreSQL $major"
