"""Sparky's built-in offline model: a deterministic English parser for everyday logging.

A package: the word lists are data (words/*.toml, read by `vocabulary`); each module reads one
kind of thing (tokens, talk, when, clauses, food, exercise, measurements, goals, changes) and
`reading` puts a message together from them.

Used when no AI service is configured. It turns "2 eggs and a banana for breakfast" or "ran 5 km in
28 min" into the same `Intent` objects a model writes in intent-JSON mode, so the coach dispatches
both the same way, and every intent it returns has passed `validate_intent`.

How a message is read:
1. `tokenise`: lower-case words, numbers ("80.2", "1/2", "9,500" -> "9500") and the punctuation
   that matters; "200g" becomes "200", "g". Known multi-word names ("mac and cheese", "heart rate",
   "push ups") are joined into one token first so the splitter leaves them alone.
2. Sentences end at . ! ? ; and a line break. A question ("how many calories did I eat today?") is
   never logged from: it becomes one ask_question with no response, for the coach to answer from
   the diary. Greetings and thanks become chat with a short reply.
3. Each sentence loses its time phrase ("yesterday", "this morning", "last night"), which sets the
   date of everything in it and, for food, the meal when none is named.
4. The rest is split into clauses on "and", ",", "then", "plus"; each clause is water, a
   measurement, exercise or food by its cue words, in that order of precedence. A clause with no
   cue ("toast" in "eggs, toast and coffee for breakfast") belongs to the food in its sentence.

Decisions, so the coach and the tests can rely on them:
- Counted food keeps unit None ("2 eggs": quantity 2, unit None = two pieces or servings), never
  "g". Size words become the unit ("2 large eggs": unit "large") because the catalog's household
  servings are named that way. Vague containers (a plate of, a bowl of) keep the count with unit
  None; measurable ones (cup, glass -> cup, slice, tbsp, can) become the unit.
- "with" joins: "coffee with milk" and "a bowl of cereal with milk" are one food each. The amount
  of the accompaniment is unknown, and logging it as a full serving of milk would overstate the
  day; the food search (or the options the coach offers) deals with the dish as a whole. When the
  accompaniment has its own amount ("toast with 2 tbsp peanut butter") it is its own entry.
- Plurals are made singular only when a count carries the number ("2 eggs" -> "egg"); "had eggs"
  stays "eggs". Compound names are kept whole ("peanut butter toast", "chicken breast").
- No meal word leaves meal_type None: the coach fills it from the user's local time. A time phrase
  sets it instead: this morning -> breakfast, this afternoon -> snack, this evening, tonight and
  last night -> dinner.
- Water is counted in glasses of 250 ml: a bottle is 2 glasses (500 ml), a litre 4, "500 ml" 2.
- Steps are a check-in measurement, never exercise; "walked 10000 steps" logs steps only.
- A blood pressure is a check-in reading of two fields ("bp 120/80", "118 over 76"); sleep, heart
  rate, body fat and blood glucose are custom measurements.
- "m" after a number is minutes right after hours ("1h 15m"), metres otherwise ("400m").
"""

from chat.reading.parser.categories import guess_categories
from chat.reading.parser.changes import CHANGE_HINT
from chat.reading.parser.reading import parse_message
from chat.reading.parser.tokens import tokenise

__all__ = ["CHANGE_HINT", "guess_categories", "parse_message", "tokenise"]
