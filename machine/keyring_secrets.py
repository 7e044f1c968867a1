"""API keys live in the OS keyring, named by `api_key_ref: keyring:saturn/<name>`."""

from __future__ import annotations

from protocol.jsonrpc import ConfigError

KEYRING_SERVICE = "saturn"


def resolve_api_key(ref: str) -> str:
    if not ref:
        return ""
    scheme, _, rest = ref.partition(":")
    service, _, name = rest.partition("/")
    if scheme != "keyring" or not service or not name:
        raise ConfigError(
            f"model.api_key_ref must look like keyring:saturn/<name>, got {ref!r}"
        )
    import keyring
    import keyring.errors

    try:
        key = keyring.get_password(service, name)
    except keyring.errors.KeyringError as exc:
        raise ConfigError(f"cannot read {ref} from the OS keyring: {exc}") from exc
    if key is None:
        raise ConfigError(f"no key stored for {ref}: run `saturn key set {name}`")
    return key


def store_api_key(name: str, key: str) -> None:
    import keyring

    keyring.set_password(KEYRING_SERVICE, name, key)
