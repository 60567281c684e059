"""Re-encrypt stored AI service API keys under the newest SPARKY_ENCRYPTION_KEYS key."""

from django.core.management.base import BaseCommand, CommandError

from aiservices.services import ai_service_rotate_keys


class Command(BaseCommand):
    help = (
        "Re-encrypt every stored API key under the first (newest) key of SPARKY_ENCRYPTION_KEYS. "
        "Safe to run again: keys already under the newest key are left alone. Afterwards the "
        "old keys can be removed from the setting."
    )

    def handle(self, *args, **options):
        counts = ai_service_rotate_keys()
        self.stdout.write(
            f"Re-encrypted {counts['rotated']} API key(s); "
            f"{counts['current']} already used the newest key."
        )
        if counts["failed"]:
            raise CommandError(
                f"{counts['failed']} API key(s) could not be decrypted with any configured key; "
                "they were left unchanged (restore the old key, or ask those users to re-enter "
                "their key)."
            )
