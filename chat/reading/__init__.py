"""Reading the user's message: the one reading of a turn, the categories it needs, the parser
and the intents."""
