"""A scripted model for the OpenAI Agents SDK, traced the way its own Responses model is.

It implements the SDK's ``Model`` interface: each call asks a script for the
output items, wraps them in a real ``openai.types.responses.Response`` and,
like ``OpenAIResponsesModel``, records a ``response`` span carrying the
response and the input when the run includes sensitive data. A real
``Runner`` then runs real agents, tools and handoffs over it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from agents import Model, ModelResponse, ModelSettings, ModelTracing, Usage
from agents.tracing import SpanError, generation_span, response_span
from openai.types.responses import Response

Script = Callable[[list[Any]], list[Any]]


def _items(input: Any) -> list[Any]:
    return [{"role": "user", "content": input}] if isinstance(input, str) else list(input)


class ScriptedModel(Model):
    """Calls ``script(input_items)`` for the output; ``style`` picks the span the SDK's
    Responses model (``"response"``) or Chat Completions model (``"generation"``) writes."""

    def __init__(self, name: str, script: Script, style: str = "response") -> None:
        self.name = name
        self.script = script
        self.style = style
        self.calls = 0

    async def get_response(
        self,
        system_instructions: str | None,
        input: Any,
        model_settings: ModelSettings,
        tools: list[Any],
        output_schema: Any,
        handoffs: list[Any],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: Any,
    ) -> ModelResponse:
        self.calls += 1
        items = _items(input)
        if self.style == "generation":
            with generation_span(model=self.name, disabled=tracing.is_disabled()) as span:
                output = self.script(items)
                if tracing.include_data():
                    span.span_data.input = items
                    span.span_data.output = [_chat_message(item) for item in output]
                return ModelResponse(output=output, usage=Usage(requests=1), response_id=None)
        with response_span(disabled=tracing.is_disabled()) as span:
            try:
                output = self.script(items)
            except Exception as exc:  # what OpenAIResponsesModel records before re-raising
                span.set_error(
                    SpanError(message="Error getting response", data={"error": str(exc)})
                )
                raise
            response = Response(
                id=f"resp-{self.name}-{self.calls}",
                created_at=0,
                model=self.name,
                object="response",
                output=output,
                tool_choice="auto",
                tools=[],
                parallel_tool_calls=False,
            )
            if tracing.include_data():
                span.span_data.response = response
                span.span_data.input = input
            return ModelResponse(output=output, usage=Usage(requests=1), response_id=response.id)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("the scripted model does not stream")


def _chat_message(item: Any) -> dict[str, Any]:
    """An output item as the Chat Completions model puts it on its generation span."""
    if item.type == "function_call":
        call = {"id": item.call_id, "function": {"name": item.name, "arguments": item.arguments}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    text = "".join(part.text for part in item.content)
    return {"role": "assistant", "content": text}


def tool_outputs(items: list[Any], call_id: str) -> list[str]:
    """What the model is shown in ``items`` as the result of tool call ``call_id``."""
    return [
        str(item["output"])
        for item in items
        if isinstance(item, dict)
        and item.get("type") == "function_call_output"
        and item.get("call_id") == call_id
    ]
