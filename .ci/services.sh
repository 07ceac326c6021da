#!/usr/bin/env bash
# Start what the tests need when it is down: PostgreSQL, Redis and Debian's Chromium.
# Safe to run again; in CI (CI=true) anything that cannot be started is an error.
set -euo pipefail

say() { echo "services: $*"; }
fail() { echo "services: $*" >&2; exit 1; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }

# PostgreSQL
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    if command -v pg_ctlcluster >/dev/null; then
        version=$(ls /etc/postgresql | sort -n | tail -n 1)
        say "starting PostgreSQL $version"
        as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    fi
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
    pg_isready -q -h 127.0.0.1 -p 5432 || fail "PostgreSQL is not running on 127.0.0.1:5432 and could not be started"
fi

# The test database named by DATABASE_URL / the Makefile default (pytest creates test_<name>).
db_url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/cedana_blog}"
if [[ "$db_url" == postgres* ]]; then
    db_name="${db_url##*/}"; db_name="${db_name%%\?*}"
    psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$db_name'" | grep -q 1 \
        || psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE \"$db_name\"" \
        || fail "could not create the database $db_name"
fi

# Redis
if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
    if command -v redis-server >/dev/null; then
        say "starting Redis"
        mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
        redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
            --dir /var/lib/redis --logfile /var/log/redis/ci.log
        sleep 1
    fi
    (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null || fail "Redis is not running on 127.0.0.1:6379 and could not be started"
fi

# Chromium for the browser tests (Debian's package; Playwright cannot download browsers here).
if [ ! -x /usr/bin/chromium ]; then
    say "installing Debian's chromium"
    if as_root true 2>/dev/null; then
        as_root apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium >/dev/null
    fi
    [ -x /usr/bin/chromium ] || { [ "${CI:-}" = true ] && fail "chromium is missing"; say "chromium missing: browser tests will be skipped"; }
fi
# nginx for the one-machine media rehearsal (tests/ops/test_media_server.py, config/nginx/).
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    say "installing Debian's nginx"
    if as_root true 2>/dev/null; then
        as_root apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq nginx-light >/dev/null \
            || DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq nginx >/dev/null
    fi
    { command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; } || { [ "${CI:-}" = true ] && fail "nginx is missing"; say "nginx missing: the media rehearsal will be skipped"; }
fi
# axe-core for the accessibility tests, from tests/browser/package-lock.json (Lighthouse, a dev
# dependency there, is only installed by `make lighthouse`).
browser_dir="$(cd "$(dirname "$0")/.." && pwd)/tests/browser"
lock="$browser_dir/package-lock.json"
stamp="$browser_dir/node_modules/.installed-from-lock"
if [ ! -f "$stamp" ] || ! cmp -s "$lock" "$stamp"; then
    if command -v npm >/dev/null; then
        say "installing axe-core (npm ci)"
        npm ci --prefix "$browser_dir" --omit=dev --no-audit --no-fund --loglevel=error
        cp "$lock" "$stamp"
    fi
    [ -f "$stamp" ] || { [ "${CI:-}" = true ] && fail "npm is missing: cannot install axe-core"; say "npm missing: accessibility tests will fail"; }
fi
say "ready"
