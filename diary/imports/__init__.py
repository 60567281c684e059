"""Your data in: other trackers' export files and Sparky's own export, previewed, then imported
in the background in one transaction.

    job = import_preview(user=alice, filename="servings.csv", content=data)
    import_confirm(user=alice, job_id=job.id)        # the worker runs import_run_task

One module per source format (myfitnesspal, cronometer, loseit, sparky) reads a file into rows
(rows.Parsed); formats tells which one wrote it; writers write each row through the domain
services; jobs holds the preview, the confirmation and the run.
"""

from diary.imports.jobs import (
    created_labels,
    import_confirm,
    import_get,
    import_preview,
    import_run,
    import_run_task,
)

__all__ = [
    "created_labels",
    "import_confirm",
    "import_get",
    "import_preview",
    "import_run",
    "import_run_task",
]
