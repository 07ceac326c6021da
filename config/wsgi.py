import os

from django.core.wsgi import get_wsgi_application

# A server started without an explicit choice gets the safe settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = get_wsgi_application()
