"""One turn of the conversation: the coach, its engines, and what a turn offers, holds, answers
and takes back."""
