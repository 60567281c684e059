"""SSRF guard for the AI service URLs users type in (custom OpenAI-compatible servers, Ollama).

A custom URL is a request the user makes our server send, so it could aim at the database, the
cloud metadata endpoint or anything else on the private network. `check_url` parses the URL,
resolves the host once and refuses any address that is not public, unless private targets are
allowed (settings.SPARKY_ALLOW_PRIVATE_AI_URLS, or a staff user). Cloud metadata addresses are
refused even then: no AI service lives there, and a leak of instance credentials is the worst
outcome an SSRF can have.

Checking is not enough on its own: a name can resolve to a public address for the check and a
private one for the connection (DNS rebinding). `pinned_client` therefore returns an httpx client
whose transport connects to the address that was checked, never looks the name up again, keeps
the Host header and TLS server name of the original host, does not follow redirects and refuses
a request to any other host.
"""

from __future__ import annotations

import functools
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import httpx
from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_SETTING_HINT = "ask an admin to set SPARKY_ALLOW_PRIVATE_AI_URLS"

# Instance-metadata services of the big clouds: AWS/GCP/Azure/OpenStack/DigitalOcean/Oracle
# (169.254.169.254), AWS over IPv6, AWS ECS task metadata, Alibaba Cloud, Oracle's older
# endpoint, and Azure's WireServer (a public address that only means something inside Azure).
_METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",
        "fd00:ec2::254",
        "169.254.170.2",
        "100.100.100.200",
        "192.0.0.192",
        "168.63.129.16",
    )
)
_METADATA_NAMES = frozenset({"metadata", "metadata.google.internal", "metadata.goog"})
_CGNAT = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT: not global, not "private"
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class BlockedURL(ValueError):
    """The URL is malformed or points somewhere Sparky must not connect to."""


class UnresolvableHost(BlockedURL):
    """The host name does not resolve (now): not a policy refusal, maybe a passing DNS failure."""


@dataclass(frozen=True)
class ResolvedTarget:
    """A checked URL and the one address every connection to it will use."""

    url: str  # as checked (scheme and host lower-cased)
    scheme: str
    host: str  # ASCII (IDNA) host name or IP literal, without brackets
    port: int
    address: IPAddress  # where connections go
    addresses: tuple[IPAddress, ...]  # everything the name resolved to (all were checked)

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"

    @property
    def pinned_url(self) -> str:
        """The URL with the host replaced by the checked address.

        Given to litellm as api_base so that even a request it makes outside our pinned client
        (a model-info probe, say) goes to the checked address without a fresh lookup; over https
        such a request fails certificate verification instead of reaching another host.
        """
        parts = urlsplit(self.url)
        literal = f"[{self.address}]" if self.address.version == 6 else str(self.address)
        return urlunsplit(parts._replace(netloc=f"{literal}:{self.port}"))


def private_allowed(user) -> bool:
    """Whether this user may point an AI service at private addresses."""
    return bool(settings.SPARKY_ALLOW_PRIVATE_AI_URLS or getattr(user, "is_staff", False))


def check_url(url: str, *, allow_private: bool) -> ResolvedTarget:
    """Parse and resolve `url`; raise BlockedURL unless every address it names is acceptable."""
    scheme, host, port, normalised = _parse(url)
    if host in _METADATA_NAMES or host.endswith(".metadata.google.internal"):
        raise BlockedURL(f"refused: {host} is a cloud metadata service, not an AI service.")
    addresses = _resolve(host, port)
    for address in addresses:
        reason = _refusal(address, allow_private=allow_private)
        if reason:
            shown = host if host == str(address) else f"{host} ({address})"
            hint = "" if reason.startswith("a cloud metadata") else f"; {_SETTING_HINT}"
            raise BlockedURL(f"refused: {shown} is {reason}{hint}.")
    return ResolvedTarget(
        url=normalised,
        scheme=scheme,
        host=host,
        port=port,
        address=addresses[0],
        addresses=tuple(addresses),
    )


def _parse(url: str) -> tuple[str, str, int, str]:
    if not isinstance(url, str) or not url.strip():
        raise BlockedURL("The URL is empty; enter the address of the AI service.")
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        # The URL is not echoed: it may carry a secret the user pasted by mistake.
        raise BlockedURL(f"The URL is not valid ({exc}).") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise BlockedURL(
            f"The URL must start with http:// or https:// (got {parts.scheme or 'no scheme'!r})."
        )
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise BlockedURL("The URL must not contain a user name or password; use the API key field.")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise BlockedURL("The URL has no host name.")
    try:
        host = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise BlockedURL(f"The host name {parts.hostname!r} is not valid.") from None
    if port is None:
        port = 443 if scheme == "https" else 80
    if not 1 <= port <= 65535:
        raise BlockedURL(f"The port {port} is out of range (1-65535).")
    netloc = f"[{host}]" if ":" in host else host
    if parts.port is not None:
        netloc = f"{netloc}:{port}"
    return scheme, host, port, urlunsplit((scheme, netloc, parts.path, parts.query, ""))


def _resolve(host: str, port: int) -> list[IPAddress]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise UnresolvableHost(f"refused: the host name {host} cannot be resolved.") from None
    addresses: list[IPAddress] = []
    for _family, _type, _proto, _canon, sockaddr in infos:
        # Scoped IPv6 addresses carry "%iface"; the scope does not change the range.
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise UnresolvableHost(f"refused: the host name {host} cannot be resolved.")
    return addresses


# The deprecated IPv4-compatible form (RFC 4291 2.5.5.1): ::169.254.169.254 is 169.254.169.254.
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


def _embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4, Teredo),
    if any."""
    if address.version != 6:
        return None
    if address.ipv4_mapped:
        return address.ipv4_mapped
    if address in _IPV4_COMPATIBLE and int(address) > 1:  # ::a.b.c.d, not :: or ::1
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour:
        return address.sixtofour
    if address.teredo:
        return address.teredo[1]
    return None


def _refusal(address: IPAddress, *, allow_private: bool) -> str | None:
    """Why this address is refused, as a phrase ("a private address"), or None."""
    inner = _embedded_ipv4(address)
    if address in _METADATA_ADDRESSES or (inner is not None and inner in _METADATA_ADDRESSES):
        return "a cloud metadata address"
    if allow_private:
        return None
    if inner is not None:
        # A translated address (IPv4-mapped, NAT64, 6to4, Teredo) goes where its IPv4 part goes.
        reason = _refusal(inner, allow_private=False)
        return f"{reason} inside an IPv6 address" if reason else None
    if address.is_unspecified:
        return "an unspecified address"
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address"
    if address.is_multicast:
        return "a multicast address"
    if address.version == 4 and address in _CGNAT:
        return "a carrier-grade NAT (shared) address"
    if address.is_reserved:
        return "a reserved address"
    if address.is_private:
        return "a private address"
    if not address.is_global:
        return "not a public address"
    return None


# The pinned connection -------------------------------------------------------------------------
class PinnedTransport(httpx.HTTPTransport):
    """Sends every request to the checked address, as if to the checked host, or refuses it."""

    def __init__(self, target: ResolvedTarget, **kwargs):
        super().__init__(**kwargs)
        self.target = target

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        target = self.target
        url = request.url
        host = (url.host or "").lower().rstrip(".")
        port = url.port or (443 if url.scheme == "https" else 80)
        if (
            url.scheme != target.scheme
            or host not in (target.host, str(target.address))
            or port != target.port
        ):
            raise BlockedURL(
                f"refused: a request to {url.scheme}://{url.host}:{port} is not the address "
                f"checked for this AI service ({target.host_header})."
            )
        # Connect to the checked address; the server still sees the original host name.
        request.url = url.copy_with(host=str(target.address))
        request.headers["Host"] = target.host_header
        if target.scheme == "https" and target.host != str(target.address):
            request.extensions = {**request.extensions, "sni_hostname": target.host}
        return super().handle_request(request)


@functools.cache
def _tls_context() -> ssl.SSLContext:
    # Built once: loading the CA bundle for every client costs tens of milliseconds.
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


def pinned_client(target: ResolvedTarget, *, timeout: float | None = None) -> httpx.Client:
    """An httpx client bound to `target`: no second lookup, no redirects, no proxies from env."""
    return httpx.Client(
        transport=PinnedTransport(target, verify=_tls_context(), retries=0),
        follow_redirects=False,
        trust_env=False,  # an env proxy or .netrc must not reroute or decorate these requests
        timeout=timeout,
    )
