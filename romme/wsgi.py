"""
WSGI config for romme project.

It exposes the WSGI callable as a module-level variable named ``application``.

For more information on this file, see
https://docs.djangoproject.com/en/5.2/howto/deployment/wsgi/
"""

import os

from django.core.wsgi import get_wsgi_application

from common.gc_tuning import freeze_startup_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "romme.settings")

application = get_wsgi_application()

# What the project loaded is not walked by the garbage collector again (common.gc_tuning).
freeze_startup_heap()
