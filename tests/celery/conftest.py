from tests.worker import celery_worker, worker  # noqa: F401  (fixtures)
