"""The project's configuration: settings, URLs, the ASGI/WSGI entry points and the Celery app.

It sits above every app (it wires them together) and holds the commands that set up and run the
whole instance. Nothing imports it but the entry points.
"""

from config.celery import app as celery_app

__all__ = ["celery_app"]
