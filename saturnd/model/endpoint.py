"""Which model server the daemon talks to: the configured one, or the embedded one."""

from __future__ import annotations

from protocol.methods import ModelEndpoint
from saturnd.config import Config
from saturnd.model.client import ModelClient
from saturnd.paths import Paths
from saturnd.secrets_store import resolve_api_key


class ModelEndpointManager:
    def __init__(self, config: Config, paths: Paths) -> None:
        self._config = config
        self._paths = paths
        self._client: ModelClient | None = None

    def _make_client(self, base_url: str, api_key: str = "") -> ModelClient:
        model = self._config.model
        return ModelClient(
            base_url,
            name=model.name,
            api_key=api_key,
            timeout_s=model.timeout_s,
            think_style=model.think_style,
            temperature=model.temperature,
        )

    async def client(self) -> ModelClient:
        if self._client is None:
            model = self._config.model
            self._client = self._make_client(model.base_url, resolve_api_key(model.api_key_ref))
        return self._client

    async def status(self) -> ModelEndpoint:
        model = self._config.model
        client = self._client or self._make_client(model.base_url)
        answers, detail = await client.probe()
        if client is not self._client:
            await client.close()
        return ModelEndpoint(base_url=model.base_url, name=model.name, answers=answers, detail=detail)

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
