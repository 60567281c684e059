"""Asking Sparky through the chat API, as the question tests do."""


def send(api, text: str) -> dict:
    """The chat API's answer to one message (200, or the test fails with the body)."""
    response = api.post("/api/chat/", {"message": text}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def ask(api, text: str) -> str:
    """The reply to a question: answered, and nothing written."""
    body = send(api, text)
    assert body["action"] == "answered", body
    assert body["entries"] == []
    return body["message"]
