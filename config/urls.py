from django.conf import settings
from django.contrib import admin
from django.urls import include, path

# Under /api/ an error outside the API's views (no such route, a refused body, a crash) is JSON
# in the API's shape; pages keep Django's.
handler400 = "sparky.api.bad_request"
handler404 = "sparky.api.page_not_found"
handler500 = "sparky.api.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("config.api_urls")),
    path("", include("sparky.urls")),
    path("", include("diary.urls")),
    path("", include("aiservices.urls")),
    path("", include("chat.web.settings_urls")),
    path("", include("chat.urls")),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.STATIC_URL, document_root=settings.STATIC_ROOT)
