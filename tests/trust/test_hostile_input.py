"""Hostile input, everywhere it comes in: random and malicious tool arguments (hypothesis), the
intent parsers, photos that are not photos, oversized messages, impossible dates and numbers and
unknown units — through the coach, the API and the pages. Every refusal is clear and writes
nothing; nothing crashes."""

from __future__ import annotations

import io
import json
import struct
import zlib
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from chat.images import prepare_image
from chat.models import ChatMessage
from chat.reading.intents import parse_intent_reply
from chat.reading.parser import parse_message
from chat.tools import ToolContext, prepare_arguments, run_tool, tools_for
from chat.turn.coach import TurnRejected, handle_turn
from exercise import services as exercise_services
from nutrition import services as food_services
from tests.trust.conftest import api_client_for, fingerprint, png_bytes, snapshot

pytestmark = pytest.mark.django_db

TOOLS = [t.name for t in tools_for("full")]
FAST = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,  # the same examples every run: a failure here is reproducible
    suppress_health_check=list(HealthCheck),
    database=None,
)

# --- tool arguments ----------------------------------------------------------------------------

HOSTILE_STRINGS = st.sampled_from(
    [
        "",
        " ",
        "null",
        "\x00",
        "egg\x00",
        "\ud800",
        "2999-01-01",
        "2024-02-30",
        "0000-00-00",
        "tomorrow",
        "-1",
        "NaN",
        "Infinity",
        "1e400",
        "1" * 400,
        "x" * 5000,
        "furlongs",
        "'; DROP TABLE foods; --",
        "<script>alert(1)</script>",
        "{{ settings.SECRET_KEY }}",
        "../../etc/passwd",
        "00000000-0000-0000-0000-000000000000",
        "not-a-uuid",
        "😀" * 20,
    ]
)
NUMBERS = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -0.0, 1e-9, 1e308, 2**63, -(2**63), 0.5, 3]),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, HOSTILE_STRINGS, st.text(max_size=30))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def arguments_for(name: str):
    """Dicts over the tool's own argument names (plus forged and unknown ones), any values."""
    t = next(t for t in tools_for("full") if t.name == name)
    keys = [*t.parameters.get("properties", {}), "user_id", "user", "entry", "zzz"]
    typed = {
        key: st.one_of(VALUES, _valid_like(spec))
        for key, spec in t.parameters.get("properties", {}).items()
    }
    return st.one_of(
        st.fixed_dictionaries({}, optional=typed),
        st.dictionaries(st.sampled_from(keys), VALUES, max_size=6),
        VALUES,  # not even an object
        st.text(max_size=60),  # raw text instead of JSON
    )


def _valid_like(spec: dict):
    kind = spec.get("type")
    if spec.get("enum"):
        return st.sampled_from(spec["enum"])
    if kind in ("number", "integer"):
        return NUMBERS
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(VALUES, max_size=3)
    return st.one_of(HOSTILE_STRINGS, st.text(max_size=40))


@pytest.fixture
def bob_ctx(bob, catalog):
    # Something of bob's own to edit or delete, and a photo, so every handler goes deep.
    food_services.food_entry_create(user=bob, food=catalog["egg"], quantity=2)
    exercise_services.exercise_entry_create(
        user=bob, exercise=catalog["running"], duration_minutes=30
    )
    return ToolContext.for_user(bob, image=prepare_image(png_bytes(), user=bob))


@pytest.mark.parametrize("name", TOOLS)
def test_no_tool_arguments_crash_a_tool_and_a_refusal_writes_nothing(bob_ctx, name):
    bob = bob_ctx.user

    @FAST
    @given(raw=arguments_for(name), as_json=st.booleans())
    def check(raw, as_json):
        before = fingerprint(bob)
        sent = json.dumps(raw, default=str) if as_json and not isinstance(raw, str) else raw
        result = run_tool(bob_ctx, name, sent)
        assert "failed unexpectedly" not in result.message, (raw, result.message)
        assert result.message.strip(), raw
        json.dumps(result.for_model())  # always something the model can be sent
        if not result.ok:
            assert result.written == []
            assert fingerprint(bob) == before, (raw, result.message)

    check()


def test_the_fingerprint_notices_any_write(bob_ctx):
    """The check above relies on it: one glass of water changes bob's fingerprint."""
    before = fingerprint(bob_ctx.user)
    assert run_tool(bob_ctx, "log_water", {"glasses": 1}).ok
    assert fingerprint(bob_ctx.user) != before


UNSTORABLE = ("\x00", "egg\x00", "\ud800")
_BASE_ARGS = {
    "food_name": "egg",
    "query": "egg",
    "name": "Mood",
    "value": 3,
    "calories": 100,
    "product_name": "P",
    "serving_size": 10,
    "serving_unit": "g",
    "measurement": "weight",
    "calories_per_hour": 100,
    "items": [{"name": "egg"}],
    "exercise_name": "running",
}


def test_text_postgres_cannot_store_never_crashes_a_tool(bob_ctx):
    """NUL and lone surrogates in every free-text argument of every tool: a refusal or an
    answer, never a database error."""
    crashed = []
    for t in tools_for("full"):
        props = t.parameters.get("properties", {})
        base = {k: v for k, v in _BASE_ARGS.items() if k in props}
        for key, spec in props.items():
            if spec.get("type") != "string" or spec.get("enum"):
                continue
            for bad in UNSTORABLE:
                result = run_tool(bob_ctx, t.name, {**base, key: bad})
                if "failed unexpectedly" in result.message:
                    crashed.append(f"{t.name}({key}={bad!r})")
    assert crashed == []


@FAST
@given(name=st.sampled_from(TOOLS), raw=st.one_of(st.text(max_size=200), VALUES))
def test_argument_repair_either_returns_an_object_or_says_what_is_wrong(name, raw):
    t = next(t for t in tools_for("full") if t.name == name)
    try:
        args = prepare_arguments(t, raw)
    except ValueError as exc:
        assert str(exc)
    else:
        assert isinstance(args, dict)
        assert not {"user", "user_id"} & set(args)


@FAST
@given(text=st.one_of(st.text(max_size=300), HOSTILE_STRINGS))
def test_the_intent_parsers_never_raise(text):
    parsed = parse_message(text)
    assert isinstance(parsed.intents, list)
    reply = parse_intent_reply(text)
    assert isinstance(reply.intents, list)
    wrapped = parse_intent_reply(json.dumps({"intent": "log_food", "data": {"food_name": text}}))
    assert isinstance(wrapped.intents, list)


# --- photos ------------------------------------------------------------------------------------


def _png_declaring(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims width x height: a decompression bomb's calling card."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def _image(fmt: str, size=(64, 48), **options) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (120, 180, 60)).save(out, format=fmt, **options)
    return out.getvalue()


def _gif_animated() -> bytes:
    frames = [Image.new("P", (32, 32), i) for i in (1, 2, 3)]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:])
    return out.getvalue()


def _rgba_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (40, 40), (255, 0, 0, 0)).save(out, format="PNG")
    return out.getvalue()


def _jpeg_with_gps() -> bytes:
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif.get_ifd(0x8825)[2] = (52.0, 31.0, 12.0)  # GPSLatitude
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (90, 60, 30)).save(out, format="JPEG", exif=exif)
    return out.getvalue()


JPEG = _image("JPEG")
PNG = png_bytes((64, 48))
REFUSED_PHOTOS = {
    "an executable": (b"MZ\x90\x00\x03" + b"\x00" * 200, "setup.exe", "setup.exe is not a photo"),
    "a text file holding a PNG": (PNG, "notes.txt", "notes.txt is not a photo"),
    "random bytes named .jpg": (b"\x13\x37" * 300, "meal.jpg", "not an image Sparky can read"),
    "an SVG named .png": (
        b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        "meal.png",
        "not an image Sparky can read",
    ),
    "a truncated JPEG": (JPEG[: len(JPEG) // 2], "meal.jpg", "damaged or incomplete"),
    "a truncated PNG": (PNG[: len(PNG) - 20], "meal.png", "damaged or incomplete"),
    "a 30000 x 30000 bomb": (_png_declaring(30000, 30000), "meal.png", "too large to open safely"),
    "huge sides": (_png_declaring(20000, 100), "meal.png", "20000 x 100 pixels; the limit"),
    "too many pixels": (_png_declaring(8000, 7000), "meal.png", "8000 x 7000 pixels; the limit"),
    "42 megapixels": (_png_declaring(7000, 6000), "meal.png", "side and 40 megapixels"),
    "a TIFF": (_image("TIFF"), "meal.png", "TIFF images are not supported"),
    "a HEIC name": (JPEG, "IMG_0001.HEIC", "HEIC photos are not supported yet"),
    "an empty file": (b"", "meal.jpg", "The photo is empty."),
    "an oversized file": (
        b"\xff\xd8\xff\xe0" + b"\x00" * (8 * 1024 * 1024 + 10),
        "big.jpg",
        "The photo is 8.0 MB; the limit is 8 MB.",
    ),
}
ACCEPTED_PHOTOS = {
    "a JPEG": (JPEG, "meal.jpg"),
    "a PNG named .jpg": (PNG, "meal.jpg"),  # the bytes decide; it is re-encoded anyway
    "a WebP": (_image("WEBP"), "meal.webp"),
    "an animated GIF": (_gif_animated(), "meal.gif"),
    "a PNG with transparency": (_rgba_png(), "meal.png"),
    "a photo with EXIF GPS": (_jpeg_with_gps(), "IMG_0002.JPG"),
    "no file name at all": (PNG, None),
}


def _upload(data: bytes, name: str | None):
    if name is None:
        return data
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def _stored_photos(user, media) -> list:
    folder = Path(media) / "chat" / str(user.pk)
    return sorted(folder.iterdir()) if folder.exists() else []


@pytest.mark.parametrize("case", list(REFUSED_PHOTOS))
def test_a_bad_photo_is_refused_clearly_everywhere_and_nothing_is_stored(alice, _media, case):
    data, name, reason = REFUSED_PHOTOS[case]

    with pytest.raises(TurnRejected) as refused:
        handle_turn(alice, "my lunch", image=_upload(data, name))
    assert refused.value.code == "bad_image" and reason in str(refused.value)

    api = api_client_for(alice).post(
        "/api/chat/", {"message": "my lunch", "image": _upload(data, name)}, format="multipart"
    )
    assert api.status_code == 400
    assert api.json()["error"] == "bad_image" and reason in api.json()["detail"]

    web = Client()
    web.force_login(alice)
    page = web.post(
        "/chat/send/", {"message": "my lunch", "image": _upload(data, name)}, HTTP_HX_REQUEST="true"
    )
    assert page.status_code == 422 and reason in page.content.decode()

    assert not ChatMessage.objects.for_user(alice).exists()
    assert _stored_photos(alice, _media) == []


@pytest.mark.parametrize("case", list(ACCEPTED_PHOTOS))
def test_a_real_photo_in_any_common_format_is_stored_as_a_clean_jpeg(alice, _media, case):
    data, name = ACCEPTED_PHOTOS[case]

    response = handle_turn(alice, "my lunch", image=_upload(data, name))

    message = ChatMessage.objects.get(pk=response.user_message_id)
    (stored,) = _stored_photos(alice, _media)
    assert message.metadata["image"]["name"] == f"chat/{alice.pk}/{stored.name}"
    with Image.open(stored) as image:
        assert image.format == "JPEG" and not image.getexif()


def test_a_base64_photo_that_is_not_a_photo_is_refused_over_the_api(alice, _media):
    import base64

    client = api_client_for(alice)
    for value, reason in (
        ("data:image/png;base64,!!!not base64!!!", "not valid base64"),
        ("data:image/png,rawdata", "must be base64 encoded"),
        (base64.b64encode(b"MZ\x90\x00" * 50).decode(), "not an image Sparky can read"),
        (base64.b64encode(_png_declaring(30000, 30000)).decode(), "too large to open safely"),
    ):
        response = client.post("/api/chat/", {"message": "x", "image": value}, format="json")
        assert response.status_code == 400, value
        assert reason in json.dumps(response.json()), response.json()
    assert not ChatMessage.objects.for_user(alice).exists()


# --- messages ------------------------------------------------------------------------------------


def test_an_oversized_message_is_refused_everywhere_and_nothing_is_stored(alice, settings):
    limit = settings.SPARKY_MAX_MESSAGE_CHARS
    text = "egg " * (limit // 4) + "x"

    with pytest.raises(TurnRejected) as refused:
        handle_turn(alice, text)
    assert refused.value.code == "too_long"
    assert f"the limit is {limit:,}" in str(refused.value)

    api = api_client_for(alice).post("/api/chat/", {"message": text}, format="json")
    assert api.status_code == 400 and api.json()["error"] == "too_long"
    web = Client()
    web.force_login(alice)
    page = web.post("/chat/send/", {"message": text}, HTTP_HX_REQUEST="true")
    assert page.status_code == 422 and "Split it into shorter messages" in page.content.decode()
    assert not ChatMessage.objects.for_user(alice).exists()

    handle_turn(alice, "e" * limit)  # exactly the limit is fine
    assert ChatMessage.objects.for_user(alice).filter(message_type="user").count() == 1


def test_control_characters_in_a_message_do_not_break_the_turn(alice):
    response = handle_turn(alice, "2 eggs\x00 for breakfast \ud800 \u202e")
    assert response.message and response.user_message_id
    stored = ChatMessage.objects.get(pk=response.user_message_id).content
    assert stored == "2 eggs for breakfast \ufffd \u202e"
    # JSON may spell a lone surrogate as an escape; the API says what is wrong with it.
    api = api_client_for(alice).post(
        "/api/chat/", '{"message": "3 glasses of water \\ud800"}', content_type="application/json"
    )
    assert api.status_code == 400
    assert api.json()["detail"] == "message: Surrogate characters are not allowed: U+D800."


# --- dates, numbers and units through the API and the tools ------------------------------------

BAD_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e400", -1, 1e308, 10**30, "abc", True]


def _api_cases(egg, running) -> list[tuple[str, str, dict]]:
    """(method, path, body) that must each be a clear 400."""
    cases = [
        ("post", "/api/food-entries/", {"food": egg, "entry_date": "2999-01-01"}),
        ("post", "/api/food-entries/", {"food": egg, "entry_date": "2024-02-30"}),
        ("post", "/api/food-entries/", {"food": egg, "unit": "furlongs"}),
        ("post", "/api/food-entries/", {"food": egg, "meal_type": "second breakfast"}),
        ("post", "/api/checkins/", {"weight": 80, "weight_unit": "stone"}),
        ("post", "/api/checkins/", {"waist": 80, "length_unit": "parsec"}),
        ("post", "/api/checkins/", {"weight": 80, "entry_date": "2999-01-01"}),
        (
            "post",
            "/api/exercise-entries/",
            {"exercise": running, "distance": 5, "distance_unit": "ly"},
        ),
        ("post", "/api/exercise-entries/", {"exercise": running, "entry_date": "9999-12-31"}),
        ("post", "/api/water/", {"glasses": 1, "date": "2999-01-01"}),
        ("put", "/api/water/", {"glasses": 1, "date": "yesterday-ish"}),
        ("post", "/api/custom-measurements/", {"name": "Mood", "value": 5, "entry_hour": 25}),
        ("get", "/api/food-entries/?date=2024-13-01", {}),
        ("get", "/api/food-entries/?start=2024-02-01&end=2024-01-01", {}),
        ("get", "/api/summary/?date=2999-01-01", {}),
        ("get", "/api/goals/effective/?date=not-a-date", {}),
    ]
    for bad in BAD_NUMBERS:
        cases += [
            ("post", "/api/food-entries/", {"food": egg, "quantity": bad}),
            ("post", "/api/foods/", {"name": "Bar", "calories": bad}),
            ("post", "/api/checkins/", {"weight": bad}),
            ("post", "/api/checkins/", {"steps": bad}),
            ("post", "/api/exercise-entries/", {"exercise": running, "duration_minutes": bad}),
            ("post", "/api/exercise-entries/", {"exercise": running, "calories_burned": bad}),
            ("post", "/api/exercises/", {"name": "Padel", "calories_per_hour": bad}),
            ("post", "/api/water/", {"glasses": bad}),
            ("put", "/api/water/", {"glasses": bad}),
            ("patch", "/api/goals/default/", {"calories": bad}),
        ]
        if bad != -1:  # a custom measurement may be negative (a temperature, a change)
            cases.append(("post", "/api/custom-measurements/", {"name": "Mood", "value": bad}))
    return cases


def test_impossible_dates_numbers_and_units_are_clear_400s_through_the_api(bob, catalog):
    client = api_client_for(bob)
    client.raise_request_exception = False
    before = snapshot(bob)
    problems = []
    for method, path, body in _api_cases(str(catalog["egg"].pk), str(catalog["running"].pk)):
        send = getattr(client, method)
        response = send(path, body, format="json") if body else send(path)
        if response.status_code != 400:
            problems.append(f"{method} {path} {body}: {response.status_code}")
            continue
        error = response.json()
        if not error.get("error") or len(error.get("detail", "")) < 10:
            problems.append(f"{method} {path} {body}: unclear {error}")
    assert problems == [], "\n".join(problems)
    assert snapshot(bob) == before


def test_searches_with_characters_postgres_cannot_take_still_answer(bob, catalog):
    client = api_client_for(bob)
    for path in ("/api/foods/?search=egg%00", "/api/exercises/?search=run%00ning"):
        response = client.get(path)
        assert response.status_code == 200, path
    assert handle_turn(bob, "search foods for \x00\ud800 egg").message


def test_json_constants_nan_and_infinity_are_a_parse_error_not_a_number(bob, catalog):
    client = api_client_for(bob)
    for raw in ('{"glasses": NaN}', '{"glasses": Infinity}', '{"glasses": 1e999}'):
        response = client.post("/api/water/", raw, content_type="application/json")
        assert response.status_code == 400, raw
    assert client.get("/api/water/").json()["glasses"] == 0


def _tool_cases(egg) -> list[tuple[str, dict, str]]:
    """(tool, arguments, words the refusal must contain)."""
    cases = [
        ("log_food", {"food_name": "egg", "date": "2999-01-01"}, "future"),
        ("log_food", {"food_name": "egg", "date": "2024-02-30"}, "2024-02-30"),
        ("log_food", {"food_name": "egg", "unit": "furlongs"}, "is not a unit"),
        ("log_checkin", {"weight": 80, "weight_unit": "stone"}, "one of kg, lb"),
        ("log_checkin", {"weight": 5000}, "plausible"),
        ("log_exercise", {"exercise_name": "running", "distance": 5, "distance_unit": "ly"}, ""),
        ("log_water", {"glasses": 1, "date": "9999-12-31"}, "future"),
        ("log_custom_measurement", {"name": "Mood", "value": 3, "hour": 25}, "hour"),
        ("set_water", {"glasses": -3}, "glasses"),
        ("edit_food_entry", {"food_name": "egg", "new_date": "2999-01-01", "quantity": 1}, ""),
    ]
    for bad in (float("nan"), float("inf"), -1, 1e308, 10**30, "NaN", "1e400"):
        cases += [
            ("log_food", {"food_name": "egg", "quantity": bad}, ""),
            ("log_external_food", {"food_name": "Burrito", "calories": bad}, ""),
            ("create_custom_food", {"food_name": "Bar", "calories": bad}, ""),
            ("log_checkin", {"weight": bad}, ""),
            ("log_water", {"glasses": bad}, ""),
            ("log_exercise", {"exercise_name": "running", "duration_minutes": bad}, ""),
            ("set_goals", {"calories": bad}, ""),
            (
                "scan_nutrition_label",
                {"product_name": "P", "serving_size": bad, "serving_unit": "g", "calories": 100},
                "",
            ),
        ]
        if bad != -1:
            cases.append(("log_custom_measurement", {"name": "Mood", "value": bad}, ""))
    return cases


def test_impossible_dates_numbers_and_units_are_clear_refusals_through_the_tools(bob_ctx, catalog):
    bob = bob_ctx.user
    before = snapshot(bob)
    problems = []
    for name, args, words in _tool_cases(str(catalog["egg"].pk)):
        result = run_tool(bob_ctx, name, args)
        if (
            result.ok
            or "unexpectedly" in result.message
            or words.lower() not in result.message.lower()
        ):
            problems.append(f"{name}({args}): ok={result.ok} {result.message}")
    assert problems == [], "\n".join(problems)
    assert snapshot(bob) == before


def test_a_decimal_that_fits_no_column_is_refused_by_the_service_not_the_database(bob, catalog):
    with pytest.raises(Exception) as caught:
        food_services.food_create_custom(user=bob, name="Bar", calories=Decimal("1e30"))
    assert caught.type.__name__ == "ValidationError"
