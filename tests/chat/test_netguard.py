"""The SSRF guard: which AI service URLs are refused, and where a checked URL really connects."""

import datetime
import ipaddress
import socket
import ssl
import tempfile
import threading

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from sparky.netguard import BlockedURL, check_url, pinned_client, private_allowed
from tests import fake_llm as fake_llm_module
from tests.conftest import make_user

fake_llm = fake_llm_module.fake_llm  # the fixture, for this module


@pytest.fixture
def dns(monkeypatch):
    """Answers for names looked up through socket.getaddrinfo; counts the lookups.

    Names not listed fall through to the real resolver (only IP literals reach it in these tests).
    """
    answers: dict[str, list[str]] = {}
    lookups: list[str] = []
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in answers:
            lookups.append(host)
            family = lambda a: socket.AF_INET6 if ":" in a else socket.AF_INET  # noqa: E731
            return [(family(a), socket.SOCK_STREAM, 6, "", (a, port or 0)) for a in answers[host]]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    answers_and_lookups = type("DNS", (), {"answers": answers, "lookups": lookups})
    return answers_and_lookups


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://10.0.0.5:11434", "10.0.0.5 is a private address"),
        ("http://172.16.3.4/v1", "a private address"),
        ("http://192.168.1.20/v1", "a private address"),
        ("http://[fc00::1]/v1", "a private address"),
        ("http://127.0.0.1:8000/v1", "a loopback address"),
        ("http://127.1/v1", "a loopback address"),
        ("http://[::1]/v1", "a loopback address"),
        ("http://169.254.10.10/", "a link-local address"),
        ("http://[fe80::1]/", "a link-local address"),
        ("http://224.0.0.251/", "a multicast address"),
        ("http://[ff02::1]/", "a multicast address"),
        ("http://240.0.0.1/", "a reserved address"),
        ("http://0.0.0.0:8080/", "an unspecified address"),
        ("http://[::]/", "an unspecified address"),
        ("http://100.64.1.1/", "a carrier-grade NAT (shared) address"),
        ("http://[::ffff:10.0.0.5]/", "a private address inside an IPv6 address"),
        ("http://[::ffff:127.0.0.1]/", "a loopback address inside an IPv6 address"),
        ("http://[64:ff9b::a00:5]/", "a private address inside an IPv6 address"),
        ("http://198.18.0.1/", "a private address"),
        ("http://169.254.169.254/latest/meta-data/", "a cloud metadata address"),
        ("http://[fd00:ec2::254]/", "a cloud metadata address"),
        ("http://[::ffff:169.254.169.254]/", "a cloud metadata address"),
        ("http://168.63.129.16/", "a cloud metadata address"),
    ],
)
def test_it_refuses_addresses_that_are_not_public(url, reason):
    with pytest.raises(BlockedURL, match="refused") as refused:
        check_url(url, allow_private=False)

    assert reason in str(refused.value)


def test_a_private_refusal_tells_the_user_who_can_allow_it():
    with pytest.raises(BlockedURL) as refused:
        check_url("http://10.0.0.5:11434", allow_private=False)

    assert str(refused.value) == (
        "refused: 10.0.0.5 is a private address; ask an admin to set SPARKY_ALLOW_PRIVATE_AI_URLS."
    )


def test_a_public_address_is_accepted_without_any_lookup(dns):
    target = check_url("https://93.184.216.34/v1", allow_private=False)

    assert target.address == ipaddress.ip_address("93.184.216.34")
    assert (target.scheme, target.host, target.port) == ("https", "93.184.216.34", 443)
    assert target.pinned_url == "https://93.184.216.34:443/v1"
    assert dns.lookups == []


def test_a_public_ipv6_address_is_accepted():
    target = check_url("http://[2606:4700::1111]:8080/v1", allow_private=False)

    assert target.host_header == "[2606:4700::1111]:8080"
    assert target.pinned_url == "http://[2606:4700::1111]:8080/v1"


def test_cloud_metadata_stays_refused_even_when_private_targets_are_allowed():
    with pytest.raises(BlockedURL, match="cloud metadata"):
        check_url("http://169.254.169.254/", allow_private=True)
    with pytest.raises(BlockedURL, match="cloud metadata"):
        check_url("http://metadata.google.internal/computeMetadata/v1/", allow_private=True)
    with pytest.raises(BlockedURL, match="cloud metadata"):
        check_url("http://168.63.129.16/", allow_private=True)  # public, yet Azure's WireServer


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://93.184.216.34/", "must start with http:// or https://"),
        ("file:///etc/passwd", "must start with http:// or https://"),
        ("93.184.216.34:8080", "must start with http:// or https://"),
        ("http:///v1", "no host name"),
        ("http://93.184.216.34:0/", "out of range"),
        ("http://93.184.216.34:70000/", "not valid"),
        ("", "empty"),
    ],
)
def test_it_refuses_malformed_urls(url, message):
    with pytest.raises(BlockedURL, match=message):
        check_url(url, allow_private=True)


def test_it_refuses_credentials_in_the_url_without_echoing_them():
    with pytest.raises(BlockedURL) as refused:
        check_url("https://bob:hunter2@93.184.216.34/v1", allow_private=True)

    assert "user name or password" in str(refused.value)
    assert "hunter2" not in str(refused.value)


def test_a_name_that_resolves_to_a_private_address_is_refused(dns):
    dns.answers["ai.example.test"] = ["10.1.2.3"]

    with pytest.raises(BlockedURL) as refused:
        check_url("https://ai.example.test/v1", allow_private=False)

    assert "ai.example.test (10.1.2.3) is a private address" in str(refused.value)


def test_one_private_address_among_public_ones_is_enough_to_refuse(dns):
    dns.answers["mixed.example.test"] = ["93.184.216.34", "192.168.0.10"]

    with pytest.raises(BlockedURL, match="192.168.0.10"):
        check_url("https://mixed.example.test/v1", allow_private=False)


def test_a_name_that_does_not_resolve_is_refused(dns):
    dns.answers["nowhere.example.test"] = []

    with pytest.raises(BlockedURL, match="cannot be resolved"):
        check_url("https://nowhere.example.test/v1", allow_private=False)


def test_allowing_private_targets_lets_the_loopback_fake_through(fake_llm):
    target = check_url(fake_llm.openai_base, allow_private=True)

    with pytest.raises(BlockedURL, match="a loopback address"):
        check_url(fake_llm.openai_base, allow_private=False)
    with pinned_client(target) as client:
        response = client.get(f"{target.pinned_url}/models")
    assert response.status_code == 200
    assert fake_llm.last.path == "/v1/models"


def test_the_connection_goes_to_the_address_checked_not_to_a_second_lookup(dns, fake_llm):
    # DNS rebinding: the first answer passes the check, a later one would point elsewhere.
    dns.answers["llm.example.test"] = ["127.0.0.1"]
    url = f"http://llm.example.test:{fake_llm.port}/v1"
    target = check_url(url, allow_private=True)
    dns.answers["llm.example.test"] = ["10.66.66.66"]

    with pinned_client(target, timeout=5) as client:
        by_name = client.get(f"{url}/models")
        by_address = client.get(f"{target.pinned_url}/models")

    assert by_name.status_code == by_address.status_code == 200
    assert dns.lookups == ["llm.example.test"]
    # The server still sees the host name the user configured.
    assert [r.headers["host"] for r in fake_llm.requests] == [
        f"llm.example.test:{fake_llm.port}"
    ] * 2


def test_a_redirect_to_another_host_is_not_followed(fake_llm):
    target = check_url(fake_llm.openai_base, allow_private=True)
    fake_llm.reply_redirect("http://93.184.216.34/v1/chat/completions")

    with pinned_client(target) as client:
        response = client.post(f"{target.pinned_url}/chat/completions", json={})

    assert response.status_code == 307
    assert len(fake_llm.requests) == 1


def test_the_pinned_client_refuses_any_other_host_even_when_told_to_follow(fake_llm):
    target = check_url(fake_llm.openai_base, allow_private=True)
    fake_llm.reply_redirect("http://93.184.216.34/v1/chat/completions")

    with pinned_client(target) as client:
        with pytest.raises(BlockedURL, match="not the address checked"):
            client.post(f"{target.pinned_url}/chat/completions", json={}, follow_redirects=True)
        with pytest.raises(BlockedURL, match="not the address checked"):
            client.get("http://93.184.216.34/")
        with pytest.raises(BlockedURL, match="not the address checked"):
            client.get(f"http://127.0.0.1:{fake_llm.port + 1}/")


def test_the_pinned_client_ignores_proxies_from_the_environment(monkeypatch, fake_llm):
    monkeypatch.setenv("HTTP_PROXY", "http://10.9.9.9:3128")
    monkeypatch.setenv("ALL_PROXY", "http://10.9.9.9:3128")
    target = check_url(fake_llm.openai_base, allow_private=True)

    with pinned_client(target, timeout=5) as client:
        response = client.get(f"{target.pinned_url}/models")

    assert response.status_code == 200


def test_staff_and_the_setting_allow_private_targets(db, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False
    member = make_user("member@example.com")
    staff = make_user("staff@example.com", is_staff=True)

    assert private_allowed(member) is False
    assert private_allowed(staff) is True
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    assert private_allowed(member) is True


@pytest.fixture
def tls_listener():
    """A loopback TLS server with a self-signed certificate that records the SNI it is sent."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "llm.example.test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    with tempfile.NamedTemporaryFile(suffix=".pem") as pem:
        pem.write(cert.public_bytes(serialization.Encoding.PEM))
        pem.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        pem.flush()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(pem.name)
    names: list[str | None] = []
    context.sni_callback = lambda sock, server_name, ctx: names.append(server_name)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(5)

    def serve_one() -> None:
        try:
            conn, _ = listener.accept()
            with context.wrap_socket(conn, server_side=True):
                pass
        except (OSError, ssl.SSLError):
            pass  # the client rejects our self-signed certificate, as it should

    thread = threading.Thread(target=serve_one, daemon=True)
    thread.start()
    yield listener.getsockname()[1], names
    thread.join(timeout=5)
    listener.close()


def test_https_connects_to_the_checked_address_with_the_host_name_as_sni(dns, tls_listener):
    port, server_names = tls_listener
    dns.answers["llm.example.test"] = ["127.0.0.1"]
    target = check_url(f"https://llm.example.test:{port}/v1", allow_private=True)
    dns.answers["llm.example.test"] = ["10.66.66.66"]

    with pinned_client(target, timeout=5) as client, pytest.raises(httpx.ConnectError) as failed:
        client.get(f"{target.pinned_url}/models")

    assert server_names == ["llm.example.test"]  # TLS was for the name, on the checked IP
    assert "CERTIFICATE_VERIFY_FAILED" in str(failed.value)  # and the certificate is verified
    assert dns.lookups == ["llm.example.test"]
