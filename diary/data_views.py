"""Settings, Your data: download everything as JSON or CSV files, and import another tracker's
export (or Sparky's own): upload, preview, confirm, then watch its progress.

Thin views over diary.exports and diary.imports. The import's page polls its progress with htmx
while the background run works; without JavaScript, reloading the page shows the same.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from diary import exports, imports
from diary.imports.formats import NAMES
from diary.models import ImportJob
from sparky.uploads import refused_upload

RECENT_IMPORTS = 5


def download(data: bytes, *, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def data_page(request):
    recent = ImportJob.objects.for_user(request.user).order_by("-created_at")[:RECENT_IMPORTS]
    return render(
        request,
        "settings/data.html",
        {"tab": "data", "recent": recent, "formats": list(NAMES.values())},
    )


@login_required
@require_GET
def export_json(request):
    return download(
        exports.export_json(user=request.user),
        filename=exports.export_filename(user=request.user, extension="json"),
        content_type="application/json",
    )


@login_required
@require_GET
def export_csv(request):
    return download(
        exports.export_zip(user=request.user),
        filename=exports.export_filename(user=request.user, extension="zip"),
        content_type="application/zip",
    )


@login_required
@require_POST
def import_upload(request):
    upload = request.FILES.get("file")
    if refused_upload(request):
        messages.error(request, refused_upload(request))
        return redirect("settings_data")
    if upload is None:
        messages.error(request, "Choose a file to import first.")
        return redirect("settings_data")
    try:
        job = imports.import_preview(user=request.user, filename=upload.name, content=upload.read())
    except ValidationError as exc:
        messages.error(request, f"{upload.name}: {' '.join(exc.messages)}")
        return redirect("settings_data")
    return redirect("settings_data_import", job_id=job.pk)


def _job(request, job_id) -> ImportJob:
    try:
        return imports.import_get(user=request.user, job_id=job_id)
    except ImportJob.DoesNotExist:
        raise Http404("No such import.") from None


@login_required
@require_GET
def import_page(request, job_id):
    job = _job(request, job_id)
    context = {
        "tab": "data",
        "job": job,
        "source_name": NAMES.get(job.source, job.source),
        "created": imports.created_labels(job),
        "polling": job.status in (ImportJob.Status.QUEUED, ImportJob.Status.RUNNING),
    }
    if request.htmx:
        return render(request, "settings/import.html#progress", context)
    return render(request, "settings/import.html", context)


@login_required
@require_POST
def import_confirm(request, job_id):
    _job(request, job_id)  # someone else's import: 404
    try:
        imports.import_confirm(user=request.user, job_id=job_id)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("settings_data_import", job_id=job_id)
