"""Intent-JSON mode: reading sloppy model replies, and the messages that explain what was wrong."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chat.reading.intents import (
    EXAMPLES,
    INTENT_JSON_INSTRUCTIONS,
    INTENT_NAMES,
    MAX_INTENTS,
    Intent,
    IntentError,
    ParseResult,
    parse_intent_reply,
    validate_intent,
)


def food(name, quantity=1, unit=None, meal=None, date=None, response=None):
    data = {"food_name": name, "quantity": quantity, "unit": unit, "meal_type": meal, "date": date}
    return Intent("log_food", data, response)


def exercise(name, minutes=None, distance=None, unit=None, date=None):
    data = {
        "exercise_name": name,
        "duration_minutes": minutes,
        "distance": distance,
        "distance_unit": unit,
        "date": date,
    }
    return Intent("log_exercise", data)


def measured(*items, response=None):
    return Intent("log_measurement", {"measurements": list(items)}, response)


def water(glasses, date=None):
    return Intent("log_water", {"glasses_consumed": glasses, "date": date})


EGG = '{"intent": "log_food", "data": {"food_name": "egg", "quantity": 2}}'

READ = [
    pytest.param(EGG, [food("egg", 2)], id="strict JSON"),
    pytest.param(f"```json\n{EGG}\n```", [food("egg", 2)], id="a code fence"),
    pytest.param(f"Sure! Here's what I logged:\n{EGG}\nEnjoy!", [food("egg", 2)], id="prose"),
    pytest.param(
        '{"intent": "log_food", "data": {"food_name": "egg", "quantity": 2,},}',
        [food("egg", 2)],
        id="trailing commas",
    ),
    pytest.param(
        "{'intent': 'log_food', 'data': {'food_name': 'egg', 'quantity': 2, 'unit': None}}",
        [food("egg", 2)],
        id="single quotes and Python None",
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"food_name": "Kellogg\'s cornflakes"}}',
        [food("Kellogg's cornflakes")],
        id="an apostrophe inside a double-quoted string",
    ),
    pytest.param(
        "{intent: log_water, data: {glasses: 2}}", [water(2)], id="bare keys and bare words"
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"food_name": "egg", "quantity": "2", "unit": "null", '
        '"meal_type": "None", "date": "null"}}',
        [food("egg", 2)],
        id="numbers and nulls as strings",
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"data": {"food_name": "toast"}}}',
        [food("toast")],
        id="data nested in data",
    ),
    pytest.param(
        '{"Intent": "LOG_FOOD", "Data": {"Food Name": "egg", "Meal-Type": "Breakfast"}}',
        [food("egg", meal="breakfast")],
        id="keys and names in other case and spelling",
    ),
    pytest.param(
        '{"intent": "logFood", "data": {"foodName": "egg", "mealType": "lunch"}}',
        [food("egg", meal="lunch")],
        id="camelCase keys",
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"food": "banana", "meal": "late lunch"}}',
        [food("banana", meal="lunch")],
        id="synonyms for food_name and meal_type",
    ),
    pytest.param(
        '{"intent": "log_food", "food_name": "egg", "quantity": 3}',
        [food("egg", 3)],
        id="data written beside the intent",
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"food_name": "rice", "quantity": "200g"}}',
        [food("rice", 200, "g")],
        id="a unit written into quantity",
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"food_name": "rice", "quantity": 1, "unit": "100 g"}}',
        [food("rice", 100, "g")],
        id="one of 100 g is 100 g",
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"food_name": "milk", "quantity": 2, "unit": "Cups"}}',
        [food("milk", 2, "cup")],
        id="unit spellings are tidied",
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"food_name": "egg", "date": "Today"}}',
        [food("egg", date="today")],
        id="today in any case",
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"food_name": "egg", "date": "2025-03-01T08:00:00Z"}}',
        [food("egg", date="2025-03-01")],
        id="a timestamp keeps its date",
    ),
    pytest.param(
        '{"intent": "log_exercise", "data": {"exercise": "walking", "minutes": "45"}}',
        [exercise("walking", 45)],
        id="synonyms for exercise_name and duration",
    ),
    pytest.param(
        '{"intent": "log_exercise", "data": {"activity": "cycling", "hours": 1.5}}',
        [exercise("cycling", 90)],
        id="hours become minutes",
    ),
    pytest.param(
        '{"intent": "log_exercise", "data": {"exercise_name": "run", "duration": "1 hour", '
        '"distance": "5 km"}}',
        [exercise("run", 60, 5, "km")],
        id="units written into the numbers",
    ),
    pytest.param(
        '{"intent": "log_exercise", "data": {}}',
        [exercise(None)],
        id="no exercise name is left for General Exercise",
    ),
    pytest.param(
        '{"intent": "log_water", "data": {"glasses": "3"}}', [water(3)], id="glasses for short"
    ),
    pytest.param(
        '{"intent": "log_water", "data": {"glasses_consumed": "500 ml"}}',
        [water(2)],
        id="water in millilitres becomes glasses",
    ),
    pytest.param(
        '{"intent": "log_water", "data": {"glasses_consumed": 2, "unit": "bottles"}}',
        [water(4)],
        id="a bottle is two glasses",
    ),
    pytest.param('{"intent": "log_water"}', [water(1)], id="water defaults to one glass"),
    pytest.param(
        '{"intent": "log_measurement", "data": {"type": "weight", "value": 80}}',
        [measured({"type": "weight", "value": 80, "unit": None, "date": None})],
        id="a measurement given flat",
    ),
    pytest.param(
        '{"intent": "log_measurement", "data": {"weight": 80.2, "waist": 84, "length_unit": "cm"}}',
        [
            measured(
                {"type": "weight", "value": 80.2, "unit": None, "date": None},
                {"type": "waist", "value": 84, "unit": "cm", "date": None},
            )
        ],
        id="measurements given as keys",
    ),
    pytest.param(
        '{"intent": "log_measurement", "data": {"measurements": {"type": "steps", "value": '
        '"9,500"}}}',
        [measured({"type": "steps", "value": 9500, "unit": "steps", "date": None})],
        id="one measurement not in a list",
    ),
    pytest.param(
        '{"intent": "log_measurement", "data": {"measurements": [{"type": "Blood_Glucose", '
        '"value": 97, "unit": "mg/dL"}]}}',
        [
            measured(
                {
                    "type": "custom",
                    "name": "Blood Glucose",
                    "value": 97,
                    "unit": "mg/dL",
                    "date": None,
                }
            )
        ],
        id="an unknown type is a custom measurement of that name",
    ),
    pytest.param(
        '{"intent": "log_measurement", "data": {"measurements": [{"type": "blood_pressure", '
        '"value": "120/80", "unit": "mmHg"}]}}',
        [
            measured(
                {"type": "systolic", "value": 120, "unit": "mmHg", "date": None},
                {"type": "diastolic", "value": 80, "unit": "mmHg", "date": None},
            )
        ],
        id="a blood pressure reading is its two fields",
    ),
    pytest.param(
        '{"intent": "log_measurement", "data": {"measurements": [{"type": "custom", "name": '
        '"weight", "value": 81, "unit": "kgs"}], "date": "yesterday"}}',
        [measured({"type": "weight", "value": 81, "unit": "kg", "date": "yesterday"})],
        id="a custom measurement named weight is the weight",
    ),
    pytest.param(
        '{"intent": "log_weight", "data": {"value": "176 lbs"}}',
        [measured({"type": "weight", "value": 176, "unit": "lb", "date": None})],
        id="log_weight is a weight measurement",
    ),
    pytest.param(
        '{"name": "log_food", "arguments": "{\\"food_name\\": \\"egg\\"}"}',
        [food("egg")],
        id="a tool call with arguments as a JSON string",
    ),
    pytest.param('{"log_food": {"food_name": "egg"}}', [food("egg")], id="the intent as the key"),
    pytest.param(
        '{"intents": [{"intent": "log_food", "data": {"food_name": "egg"}}, '
        '{"intent": "log_water", "data": {"glasses": 1}}]}',
        [food("egg"), water(1)],
        id="several intents under intents",
    ),
    pytest.param(
        '[{"intent": "log_food", "data": {"food_name": "egg"}}, {"intent": "chat", "response": '
        '"Nice!"}]',
        [food("egg"), Intent("chat", {}, "Nice!")],
        id="several intents as a list",
    ),
    pytest.param(
        f"{EGG}\n{EGG.replace('egg', 'toast')}",
        [food("egg", 2), food("toast", 2)],
        id="several objects one after another",
    ),
    pytest.param(
        '{"intent": "log_food", "data": [{"food_name": "egg"}, {"food_name": "toast"}]}',
        [food("egg"), food("toast")],
        id="data given as a list of foods",
    ),
    pytest.param(
        '{"intents": [{"intent": "log_food", "data": {"food_name": "egg"}}, {"intent": '
        '"log_food", "data": {"food_name": "toast"}}], "response": "Logged both."}',
        [food("egg", response="Logged both."), food("toast")],
        id="one reply for several intents is shown once",
    ),
    pytest.param(
        '{"intent": "ask_question", "data": {"response": "About 105 kcal."}}',
        [Intent("ask_question", {}, "About 105 kcal.")],
        id="a reply misplaced inside data",
    ),
    pytest.param(
        '{"intent": "chat", "data": "whatever", "response": "Hi!"}',
        [Intent("chat", {}, "Hi!")],
        id="chat data is always empty",
    ),
]


@pytest.mark.parametrize(("reply", "expected"), READ)
def test_it_reads(reply, expected):
    result = parse_intent_reply(reply)

    assert result == ParseResult(intents=expected, errors=[])


def bad(data, intent="log_food"):
    return json.dumps({"intent": intent, "data": data})


REFUSED = [
    pytest.param(
        bad({"quantity": 2}),
        "log_food needs a food_name, e.g. " + json.dumps(EXAMPLES["log_food"]),
        id="a food without a name shows an example",
    ),
    pytest.param(
        bad({"food_name": "egg", "quantity": "lots"}),
        "log_food quantity must be a number, not 'lots'.",
        id="a quantity that is not a number",
    ),
    pytest.param(
        bad({"food_name": "egg", "quantity": True}),
        "log_food quantity must be a number, not True.",
        id="true is not a quantity",
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"food_name": "egg", "quantity": NaN}}',
        "log_food quantity must be a finite number, not nan.",
        id="NaN is refused",
    ),
    pytest.param(
        '{"intent": "log_food", "data": {"food_name": "egg", "quantity": "Infinity"}}',
        "log_food quantity must be a finite number, not 'Infinity'.",
        id="infinity is refused",
    ),
    pytest.param(
        bad({"food_name": "rice", "quantity": 75, "unit": "100 g"}),
        "log_food unit '100 g' holds a number; put the amount in quantity and only the unit in "
        "unit, e.g. quantity 75 and unit 'g'.",
        id="a number hidden in the unit is not multiplied",
    ),
    pytest.param(
        bad({"food_name": "egg", "meal_type": "elevenses"}),
        "log_food meal_type must be breakfast, lunch, dinner, snack or null, not 'elevenses'.",
        id="an unknown meal",
    ),
    pytest.param(
        bad({"food_name": "egg", "date": "05/03/2024"}),
        "log_food date must be null, 'today', 'yesterday' or YYYY-MM-DD, not '05/03/2024'.",
        id="a date in another format",
    ),
    pytest.param(
        bad({"food_name": "egg", "date": "2025-02-30"}),
        "log_food date must be null, 'today', 'yesterday' or YYYY-MM-DD, not '2025-02-30'.",
        id="a date that does not exist",
    ),
    pytest.param(
        bad({"exercise_name": "run", "distance": 5, "distance_unit": "yards"}, "log_exercise"),
        "log_exercise distance_unit must be km, mi or m (or null), not 'yards'.",
        id="an unknown distance unit",
    ),
    pytest.param(
        bad({"exercise_name": 42}, "log_exercise"),
        "log_exercise exercise_name must be text, e.g. " + json.dumps(EXAMPLES["log_exercise"]),
        id="an exercise name that is a number",
    ),
    pytest.param(
        bad({"glasses_consumed": 2, "unit": "buckets"}, "log_water"),
        "log_water glasses_consumed is counted in glasses (250 ml); 'buckets' is not a unit of "
        "water I know. Use glasses, ml or l, e.g. " + json.dumps(EXAMPLES["log_water"]),
        id="water in an unknown unit",
    ),
    pytest.param(
        bad({"measurements": []}, "log_measurement"),
        "log_measurement needs a list of measurements, e.g. "
        + json.dumps(EXAMPLES["log_measurement"]),
        id="no measurements",
    ),
    pytest.param(
        bad({"type": "weight", "value": 12, "unit": "stone"}, "log_measurement"),
        "log_measurement weight unit must be kg or lb (or null), not 'stone'.",
        id="a weight unit the check-in cannot store",
    ),
    pytest.param(
        bad({"type": "steps", "value": 5, "unit": "km"}, "log_measurement"),
        "log_measurement steps are counted in steps, not 'km'.",
        id="steps in kilometres",
    ),
    pytest.param(
        bad({"type": "custom", "value": 5}, "log_measurement"),
        "log_measurement is custom and needs a name, e.g. "
        + json.dumps(EXAMPLES["log_measurement"]),
        id="a custom measurement without a name",
    ),
    pytest.param(
        bad(
            {"measurements": [{"type": "weight", "value": 80}, {"type": "waist"}]},
            "log_measurement",
        ),
        "log_measurement item 2 (waist) needs a value, e.g. "
        + json.dumps(EXAMPLES["log_measurement"]),
        id="the faulty measurement is named by position",
    ),
    pytest.param(
        bad(5),
        "log_food data must be an object, e.g. " + json.dumps(EXAMPLES["log_food"]),
        id="data that is not an object",
    ),
    pytest.param(
        '{"intent": "log_sleep", "data": {}}',
        "Unknown intent 'log_sleep'; use one of log_food, log_exercise, log_measurement, "
        "log_water, ask_question, chat.",
        id="an unknown intent lists the known ones",
    ),
    pytest.param(
        '{"food_name": "egg"}',
        "The JSON has no intent; use one of log_food, log_exercise, log_measurement, log_water, "
        "ask_question, chat, e.g. " + json.dumps(EXAMPLES["log_food"]),
        id="data without an intent",
    ),
    pytest.param(
        "I've logged your eggs!",
        "The reply held no JSON intent; answer with JSON only, e.g. "
        + json.dumps(EXAMPLES["chat"]),
        id="prose claiming success is not trusted",
    ),
    pytest.param(
        "",
        "The reply was empty; expected JSON such as " + json.dumps(EXAMPLES["chat"]),
        id="an empty reply",
    ),
    pytest.param(
        "[1, 2, 3]",
        "The reply's JSON held no intent; expected e.g. " + json.dumps(EXAMPLES["log_food"]),
        id="JSON with no object in it",
    ),
]


@pytest.mark.parametrize(("reply", "message"), REFUSED)
def test_it_refuses_with_a_message_that_says_what_to_fix(reply, message):
    result = parse_intent_reply(reply)

    assert result == ParseResult(intents=[], errors=[message])


def test_validate_intent_raises_intent_error_with_the_same_message():
    with pytest.raises(IntentError, match="^log_food needs a food_name"):
        validate_intent({"intent": "log_food", "data": {}})
    with pytest.raises(IntentError, match="^An intent must be a JSON object"):
        validate_intent(["log_food"])
    assert issubclass(IntentError, ValueError)


def test_good_intents_are_kept_when_others_in_the_reply_are_refused():
    reply = json.dumps(
        {
            "intents": [
                {"intent": "log_food", "data": {"food_name": "egg"}},
                {"intent": "log_water", "data": {"glasses": 2, "unit": "buckets"}},
            ]
        }
    )

    result = parse_intent_reply(reply)

    assert result.intents == [food("egg")]
    assert result.errors[0].startswith("Intent 2: log_water glasses_consumed is counted in glasses")


def test_it_reads_at_most_the_first_twenty_intents():
    reply = json.dumps([{"intent": "log_water"}] * (MAX_INTENTS + 5))

    result = parse_intent_reply(reply)

    assert len(result.intents) == MAX_INTENTS
    assert result.errors == [f"Only the first {MAX_INTENTS} of 25 intents were read."]


def test_a_validated_intent_validates_to_itself():
    intent = parse_intent_reply(
        '{"intent": "log_measurement", "data": {"weight": "80 kg", "steps": 9500}}'
    ).intents[0]

    assert validate_intent(intent) == intent
    assert validate_intent({"intent": intent.name, "data": intent.data}) == intent


def test_every_example_in_the_instructions_is_a_valid_intent():
    examples = [line.strip() for line in INTENT_JSON_INSTRUCTIONS.splitlines()]
    examples = [line for line in examples if line.startswith('{"intent"')]

    assert [json.loads(line)["intent"] for line in examples] == list(INTENT_NAMES)
    for line in examples:
        assert parse_intent_reply(line).errors == []


def test_the_instructions_are_short_and_name_every_field():
    assert len(INTENT_JSON_INSTRUCTIONS) < 4000
    for field in ("food_name", "quantity", "unit", "meal_type", "exercise_name"):
        assert field in INTENT_JSON_INSTRUCTIONS
    for field in ("duration_minutes", "distance_unit", "measurements", "glasses_consumed"):
        assert field in INTENT_JSON_INSTRUCTIONS
    assert '"intents"' in INTENT_JSON_INSTRUCTIONS
    assert "2 eggs is quantity 2 with unit null" in " ".join(INTENT_JSON_INSTRUCTIONS.split())


# Property tests: whatever a model sends, the caller gets a ParseResult, never an exception.

KEYS = [
    "intent",
    "intents",
    "data",
    "response",
    "food_name",
    "food",
    "quantity",
    "unit",
    "meal_type",
    "date",
    "exercise_name",
    "duration_minutes",
    "minutes",
    "hours",
    "distance",
    "distance_unit",
    "measurements",
    "type",
    "name",
    "value",
    "glasses_consumed",
    "glasses",
    "ml",
    "weight",
    "steps",
    "arguments",
]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from([*INTENT_NAMES, "custom", "weight", "kg", "200g", "1/0", "null", "today"]),
)
JSONISH = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), children, max_size=5
        ),
    ),
    max_leaves=25,
)
INTENTISH = st.fixed_dictionaries(
    {"intent": st.sampled_from([*INTENT_NAMES, "log_weight", "nonsense"])},
    optional={"data": JSONISH, "response": SCALARS},
)


def render(value, style):
    text = json.dumps(value)
    return [text, f"```json\n{text}\n```", f"Here you go: {text} done", text.replace('"', "'")][
        style
    ]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_a_parse_result(text):
    result = parse_intent_reply(text)

    assert isinstance(result, ParseResult)
    assert result.intents or result.errors


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSONISH, INTENTISH, st.lists(INTENTISH, max_size=3)), st.integers(0, 3))
def test_any_json_gives_a_parse_result_whose_intents_are_valid(value, style):
    result = parse_intent_reply(render(value, style))

    assert result.intents or result.errors
    for intent in result.intents:
        assert intent.name in INTENT_NAMES
        assert validate_intent(intent) == intent


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSONISH, INTENTISH))
def test_validate_intent_only_ever_raises_intent_error(value):
    try:
        intent = validate_intent(value)
    except IntentError as error:
        assert str(error)
    else:
        assert validate_intent(intent) == intent
