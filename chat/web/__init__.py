"""Chat's surfaces: the chat page, the API, the event stream, the settings page and the MCP
server."""
