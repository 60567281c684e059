"""Uploaded files are measured as their bytes arrive: one larger than SPARKY_MAX_UPLOAD_BYTES
stops the reading of the request there, instead of after it was read whole.

    FILE_UPLOAD_HANDLERS = ["sparky.uploads.LimitedUploadHandler", ...]   # config/settings.py
    refused = refused_upload(request)     # "export.zip is larger than 10 MB ..." or None

The fields sent before the file (the page's CSRF token) are read as usual, so the view still
runs and says why the file is missing; `refused_upload` gives its sentence. Nothing past the
limit is read: the rest of the body is left unread (the connection is closed after the answer).
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload

_ATTRIBUTE = "sparky_upload_refused"


def limit_bytes() -> int:
    return settings.SPARKY_MAX_UPLOAD_BYTES


def megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:g} MB"


class LimitedUploadHandler(FileUploadHandler):
    """First of the upload handlers: counts each file's bytes and stops the upload at the
    limit, noting on the request which file it was."""

    def new_file(self, field_name, file_name, *args, **kwargs):
        super().new_file(field_name, file_name, *args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data, start):
        self.received += len(raw_data)
        if self.received > limit_bytes():
            name = self.file_name or "The file"
            setattr(
                self.request,
                _ATTRIBUTE,
                f"{name} is larger than {megabytes(limit_bytes())}, the most Sparky accepts in "
                "one upload; it was not read further.",
            )
            raise StopUpload(connection_reset=True)
        return raw_data  # the next handler (memory or a temporary file) keeps it

    def file_complete(self, file_size):
        return None


def refused_upload(request) -> str | None:
    """Why an uploaded file of this request was stopped, or None. Read the request's files
    (request.FILES or DRF's request.data) first."""
    return getattr(request, _ATTRIBUTE, None)
