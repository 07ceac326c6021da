#!/usr/bin/env bash
# Lighthouse scores for /blog/, a post and a post without a hero picture (as an import from a
# blog without featured pictures leaves many), served the production way: DEBUG off,
# collectstatic with whitenoise's hashed and compressed files, gunicorn on 127.0.0.1. A report,
# not a test; the full reports land in test-artifacts/lighthouse/.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${VENV:-.venv}
PORT=${LIGHTHOUSE_PORT:-8799}
POST_SLUG=node-dies-under-jupyter-session
NO_HERO_SLUG=one-gpu-fails-71-healthy-gpus-wait
work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# Lighthouse goes into var/lighthouse, from the same lock, so the axe-core install the browser
# tests use (tests/browser/node_modules, maybe shared by several checkouts) is never rebuilt.
tools=${LIGHTHOUSE_DIR:-var/lighthouse}
mkdir -p "$tools"
if ! cmp -s tests/browser/package-lock.json "$tools/package-lock.json" \
    || [ ! -f "$tools/node_modules/lighthouse/cli/index.js" ]; then
    cp tests/browser/package.json tests/browser/package-lock.json "$tools/"
    npm ci --prefix "$tools" --no-audit --no-fund --loglevel=error
fi

export DJANGO_SETTINGS_MODULE=config.settings.production
export DATABASE_URL="sqlite:///$work/db.sqlite3" MEDIA_ROOT="$work/media" CACHE_DIR="$work/cache"
# production.py wants a long random key; this one lives as long as the run.
SECRET_KEY=$("$VENV/bin/python" -c 'import secrets; print(secrets.token_urlsafe(50))')
export SECRET_KEY ALLOWED_HOSTS=127.0.0.1 DEBUG=0
export SECURE_SSL_REDIRECT=0 SECURE_HSTS_SECONDS=0  # plain http on 127.0.0.1
export LOG_LEVEL=WARNING  # load_demo logs every page it publishes
"$VENV/bin/python" manage.py migrate --noinput -v0
"$VENV/bin/python" manage.py load_demo >/dev/null
# Every demo post has a hero picture: this one loses it, published as an editor would.
"$VENV/bin/python" manage.py shell --no-imports -c "
from blog.models import BlogPage
post = BlogPage.objects.get(slug='$NO_HERO_SLUG')
post.hero_image, post.hero_alt = None, ''
post.save_revision().publish()
"
"$VENV/bin/python" manage.py collectstatic --noinput -v0
"$VENV/bin/gunicorn" tests.browser.lighthouse_wsgi:application --bind "127.0.0.1:$PORT" \
    --workers 2 --log-level warning &
server=$!
base="http://127.0.0.1:$PORT"
for _ in $(seq 1 60); do curl -fs -o /dev/null "$base/blog/" && break; sleep 1; done
# First visits draw the image renditions; Lighthouse should measure a warm site.
for path in /blog/ "/blog/$POST_SLUG/" "/blog/$NO_HERO_SLUG/"; do curl -fs -o /dev/null "$base$path"; done

export CHROME_PATH=/usr/bin/chromium
reports=test-artifacts/lighthouse
mkdir -p "$reports"
# Scores move with the machine's load: say what it was.
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for name in blog post post-without-hero; do
    case $name in
        blog) path=/blog/ ;;
        post) path="/blog/$POST_SLUG/" ;;
        post-without-hero) path="/blog/$NO_HERO_SLUG/" ;;
    esac
    node "$tools/node_modules/lighthouse/cli/index.js" "$base$path" --quiet \
        --only-categories=performance,accessibility,best-practices,seo \
        --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage" \
        --output=json --output=html --output-path="$reports/$name"
    "$VENV/bin/python" - "$reports/$name.report.json" "$path" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
scores = {c["title"]: round((c["score"] or 0) * 100) for c in report["categories"].values()}
print(f"{sys.argv[2]:45} " + "  ".join(f"{name} {score}" for name, score in scores.items()))
for audit in report["audits"].values():
    if audit.get("score") is not None and audit["score"] < 0.9 and audit.get("scoreDisplayMode") in {"binary", "numeric", "metricSavings"}:
        print(f"    below 90: {audit['id']} ({audit.get('displayValue', '')})")
PY
done
