"""The production WSGI app plus the uploaded pictures, for `make lighthouse` only: in production
a web server or object storage serves /media/, which gunicorn alone does not."""

import os

from whitenoise import WhiteNoise

from config.wsgi import application as django_application

# autorefresh: renditions are created while pages render, after this process started.
application = WhiteNoise(
    django_application,
    root=os.environ["MEDIA_ROOT"],
    prefix="/media/",
    autorefresh=True,
    max_age=365 * 24 * 3600,
)
