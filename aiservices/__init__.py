"""The user's AI services: their settings (keys encrypted at rest), the litellm gateway that
calls them, the circuit that rests a failing one, and the settings pages and API that manage them.

Chat builds on this app; this app knows nothing of chat (an import-linter contract checks it).
"""
