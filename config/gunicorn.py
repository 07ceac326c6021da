"""gunicorn settings for every app server: `gunicorn -c config/gunicorn.py config.wsgi`.

Each server is identical and keeps no state of its own; what differs comes from the environment.
"""

import gc
import os

MAX_WORKERS = 12


def _int(name, default):
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def default_workers(cores):
    # gunicorn's rule of thumb, capped so one big machine doesn't exhaust PostgreSQL connections
    # (each worker holds one, CONN_MAX_AGE keeps it open).
    return min(2 * cores + 1, MAX_WORKERS)


# Loopback unless told otherwise: a load balancer or container sets GUNICORN_BIND=0.0.0.0:8000.
bind = [os.environ.get("GUNICORN_BIND") or f"127.0.0.1:{_int('PORT', 8000)}"]
workers = _int("WEB_CONCURRENCY", default_workers(os.cpu_count() or 1))
threads = _int("GUNICORN_THREADS", 1)

# A page that takes 30 s is broken; kill the worker rather than queue behind it.
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = _int("GUNICORN_KEEPALIVE", 5)

# Recycle workers now and then (jittered so they don't all restart at once) to bound slow leaks.
max_requests = _int("GUNICORN_MAX_REQUESTS", 1000)
max_requests_jitter = _int("GUNICORN_MAX_REQUESTS_JITTER", 100)

# Only the load balancer may say a request came over HTTPS (X-Forwarded-Proto).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# GUNICORN_ACCESS_LOG= (empty) turns the access log off.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# Client, request, status, bytes, duration in ms and the worker's pid: enough to find a slow
# server behind the balancer.
access_log_format = '%(h)s "%(r)s" %(s)s %(B)s %(M)sms xff="%({x-forwarded-for}i)s" pid=%(p)s'

# Heartbeat files on tmpfs: a worker blocked on a slow disk is not mistaken for a hung one.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # noqa: S108


def post_worker_init(worker):
    """Django, Wagtail and the project, loaded by now, live as long as the worker: frozen, the
    garbage collector stops walking them. Otherwise each full collection walked them all,
    160-230 ms in the middle of some reader's request (the slowest first page after a change
    in `make bench`); frozen, 35-60 ms."""
    gc.collect()
    gc.freeze()
