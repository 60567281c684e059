from django.conf import settings
from django.contrib import admin
from django.urls import include, path

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
