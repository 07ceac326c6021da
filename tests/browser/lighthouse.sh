#!/usr/bin/env bash
# Lighthouse scores for /blog/ and a post, served the production way: DEBUG off, collectstatic
# with whitenoise's hashed and compressed files, gunicorn on 127.0.0.1. A report, not a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${VENV:-.venv}
PORT=${LIGHTHOUSE_PORT:-8799}
POST_SLUG=node-dies-under-jupyter-session
work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
rm -f tests/browser/node_modules/.installed-from-lock  # services.sh reinstalls axe-core alone

export DJANGO_SETTINGS_MODULE=config.settings.production
export DATABASE_URL="sqlite:///$work/db.sqlite3" MEDIA_ROOT="$work/media" CACHE_DIR="$work/cache"
export SECRET_KEY="lighthouse-run-only" ALLOWED_HOSTS=127.0.0.1 DEBUG=0
export SECURE_SSL_REDIRECT=0 SECURE_HSTS_SECONDS=0  # plain http on 127.0.0.1
"$VENV/bin/python" manage.py migrate --noinput -v0
"$VENV/bin/python" manage.py load_demo >/dev/null
"$VENV/bin/python" manage.py collectstatic --noinput -v0
"$VENV/bin/gunicorn" tests.browser.lighthouse_wsgi:application --bind "127.0.0.1:$PORT" \
    --workers 2 --log-level warning &
server=$!
base="http://127.0.0.1:$PORT"
for _ in $(seq 1 60); do curl -fs -o /dev/null "$base/blog/" && break; sleep 1; done
# First visits draw the image renditions; Lighthouse should measure a warm site.
curl -fs -o /dev/null "$base/blog/" && curl -fs -o /dev/null "$base/blog/$POST_SLUG/"

export CHROME_PATH=/usr/bin/chromium
for path in /blog/ "/blog/$POST_SLUG/"; do
    node tests/browser/node_modules/lighthouse/cli/index.js "$base$path" --quiet \
        --only-categories=performance,accessibility,best-practices,seo \
        --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage" \
        --output=json --output-path="$work/report.json"
    "$VENV/bin/python" - "$work/report.json" "$path" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
scores = {c["title"]: round((c["score"] or 0) * 100) for c in report["categories"].values()}
print(f"{sys.argv[2]:45} " + "  ".join(f"{name} {score}" for name, score in scores.items()))
for audit in report["audits"].values():
    if audit.get("score") is not None and audit["score"] < 0.9 and audit.get("scoreDisplayMode") in {"binary", "numeric", "metricSavings"}:
        print(f"    below 90: {audit['id']} ({audit.get('displayValue', '')})")
PY
done
