import datetime as dt
import uuid

import pytest
from django.utils import timezone

from chat.models import ChatMessage
from chat.services import history_auto_clear, history_clear, history_start_session
from diary.services import preferences_update
from tests.conftest import make_user

NOW = dt.datetime(2025, 6, 15, 12, 0, tzinfo=dt.UTC)


def say(user, text, *, days_ago=0, session=None, **extra):
    return ChatMessage.objects.create(
        user=user,
        session_id=session or uuid.uuid4(),
        message_type="user",
        content=text,
        created_at=NOW - dt.timedelta(days=days_ago),
        **extra,
    )


def contents(user):
    return sorted(ChatMessage.objects.for_user(user).values_list("content", flat=True))


@pytest.mark.django_db
def test_starting_a_session_with_session_auto_clear_deletes_earlier_sessions(alice, bob):
    preferences_update(user=alice, auto_clear_history="session")
    say(alice, "old session")
    say(bob, "bob's message")

    session = history_start_session(user=alice)
    say(alice, "new session", session=session)

    assert isinstance(session, uuid.UUID)
    assert contents(alice) == ["new session"]
    assert contents(bob) == ["bob's message"]


@pytest.mark.django_db
def test_starting_a_session_keeps_history_for_other_preferences(alice):
    say(alice, "kept")
    first = history_start_session(user=alice)
    preferences_update(user=alice, auto_clear_history="7days")
    second = history_start_session(user=alice)

    assert first != second
    assert contents(alice) == ["kept"]


@pytest.mark.django_db
def test_clearing_history_deletes_only_the_users_messages(alice, bob):
    say(alice, "one")
    say(alice, "two")
    say(bob, "bob keeps this")

    assert history_clear(user=alice) == 2
    assert contents(alice) == []
    assert contents(bob) == ["bob keeps this"]


@pytest.mark.django_db(transaction=True)
def test_clearing_history_removes_the_users_stored_photos(alice, bob, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    own = tmp_path / "chat" / str(alice.id) / "lunch.jpg"
    own.parent.mkdir(parents=True)
    own.write_bytes(b"jpeg")
    # A forged path in metadata pointing at bob's photo must not delete it.
    bobs = tmp_path / "chat" / str(bob.id) / "dinner.jpg"
    bobs.parent.mkdir(parents=True)
    bobs.write_bytes(b"jpeg")
    say(alice, "photo", metadata={"image": {"name": f"chat/{alice.id}/lunch.jpg"}})
    say(alice, "forged", metadata={"image": {"name": f"chat/{bob.id}/dinner.jpg"}})

    assert history_clear(user=alice) == 2
    assert not own.exists()
    assert bobs.exists()


@pytest.mark.django_db
def test_auto_clear_deletes_old_messages_per_each_users_retention(alice, bob):
    carol = make_user("carol@example.com")
    dave = make_user("dave@example.com")
    preferences_update(user=alice, auto_clear_history="7days")
    preferences_update(user=bob, auto_clear_history="never")
    preferences_update(user=carol, auto_clear_history="30days")
    # dave never saved preferences: the default is 'never'.
    for user in (alice, bob, carol, dave):
        say(user, "40 days old", days_ago=40)
        say(user, "10 days old", days_ago=10)
        say(user, "yesterday", days_ago=1)

    deleted = history_auto_clear(now=NOW)

    assert deleted == 3
    assert contents(alice) == ["yesterday"]
    assert contents(carol) == ["10 days old", "yesterday"]
    assert len(contents(bob)) == 3
    assert len(contents(dave)) == 3


@pytest.mark.django_db
def test_auto_clear_run_twice_deletes_nothing_the_second_time(alice):
    preferences_update(user=alice, auto_clear_history="7days")
    say(alice, "old", days_ago=8)
    say(alice, "new", days_ago=6)

    assert history_auto_clear(now=NOW) == 1
    assert history_auto_clear(now=NOW) == 0
    assert contents(alice) == ["new"]


@pytest.mark.django_db
def test_auto_clear_works_through_more_messages_than_one_batch(alice):
    preferences_update(user=alice, auto_clear_history="7days")
    ChatMessage.objects.bulk_create(
        ChatMessage(
            user=alice,
            message_type="user",
            content=f"old {i}",
            created_at=NOW - dt.timedelta(days=9, minutes=i),
        )
        for i in range(25)
    )
    say(alice, "recent", days_ago=2)

    assert history_auto_clear(now=NOW, batch_size=10) == 25
    assert contents(alice) == ["recent"]


@pytest.mark.django_db
def test_auto_clear_defaults_to_the_current_time(alice):
    preferences_update(user=alice, auto_clear_history="7days")
    ChatMessage.objects.create(
        user=alice, message_type="user", content="old", created_at=timezone.now() - dt.timedelta(8)
    )
    ChatMessage.objects.create(user=alice, message_type="user", content="just now")

    assert history_auto_clear() == 1
    assert contents(alice) == ["just now"]
