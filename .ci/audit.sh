#!/usr/bin/env bash
# `make audit`: pip-audit over requirements.lock against PyPI's advisory data.
# pip-audit reads advisories from PyPI's per-release JSON (https://pypi.org/pypi/<name>/<version>/json,
# its "vulnerabilities" field) or from OSV (https://api.osv.dev). Where neither answers, no audit
# is possible: say so loudly, with what each source answered, and fail only when
# AUDIT_REQUIRED=1 (set it wherever the network allows the audit).
set -uo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
# A release that certainly exists on PyPI: the locked Django.
django_pin=$(grep -i '^django==' requirements.lock | head -1 | cut -d= -f3)
pypi_url="https://pypi.org/pypi/Django/${django_pin:-5.2.17}/json"
osv_url="https://api.osv.dev/v1/query"

answer() {  # "HTTP <status>" or the connection error, for the message below
    "$VENV/bin/python" - "$@" <<'PY'
import json, sys, urllib.error, urllib.request
url, body = sys.argv[1], (sys.argv[2].encode() if len(sys.argv) > 2 else None)
request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
try:
    with urllib.request.urlopen(request, timeout=15) as response:
        print(f"HTTP {response.status}")
except urllib.error.HTTPError as error:
    print(f"HTTP {error.code}")
except Exception as error:  # noqa: BLE001 - any failure is reported as the answer
    print(f"no answer ({getattr(error, 'reason', error)})")
PY
}

pypi_answer=$(answer "$pypi_url")
osv_answer=$(answer "$osv_url" '{"package": {"name": "django", "ecosystem": "PyPI"}, "version": "'"${django_pin:-5.2.17}"'"}')

if [ "$pypi_answer" = "HTTP 200" ]; then
    exec "$VENV/bin/pip-audit" -r requirements.lock --no-deps --disable-pip --strict --progress-spinner off
fi
if [ "$osv_answer" = "HTTP 200" ]; then
    exec "$VENV/bin/pip-audit" -r requirements.lock --no-deps --disable-pip --strict --progress-spinner off --vulnerability-service osv
fi

echo "audit: NOT DONE - no advisory source pip-audit uses answered from this machine:" >&2
echo "audit:   PyPI per-release JSON  $pypi_url -> $pypi_answer" >&2
echo "audit:   OSV                    $osv_url -> $osv_answer" >&2
echo "audit: the dependencies in requirements.lock were not checked for known vulnerabilities." >&2
[ "${AUDIT_REQUIRED:-0}" = 1 ] && exit 1
exit 0
