#!/usr/bin/env python3
"""Bring your own agent, in Python with the standard library only.

skillrl runs this program once per episode (agent: { program: { command: ["python3", "agent.py"] } }) and hands
it the episode through environment variables:

  SKILLRL_TASK_FILE   JSON: { task, observation, condition, episodeId, tools }
  OPENAI_BASE_URL     skillrl's recording proxy in front of the real model (OpenAI-compatible)
  OPENAI_API_KEY      a per-episode token for that proxy (not your real key)
  SKILLRL_MCP_URL     the episode's environment as an MCP server (streamable HTTP)

The program speaks both protocols by hand: Chat Completions with urllib, and MCP's streamable HTTP transport
(JSON-RPC initialize, notifications/initialized, then tools/list and tools/call with the Mcp-Session-Id header;
a reply may come as application/json or as a text/event-stream). It offers the model the task's own tools
(those SKILLRL_TASK_FILE lists: read_file, web_search, fetch_page for GAIA), runs them on the MCP server, and
prints its answer as the last line of stdout: {"answer": "..."}.
"""

import json
import os
import sys
import time
import urllib.error
import urllib.request

NAME = "byo-python"
MAX_TURNS = int(os.environ.get("MAX_TURNS", "12"))
# With injectSkill (the default) skillrl's proxy appends the episode's skill to this system message when the
# episode's condition is 1.
SYSTEM = (
    "You answer questions. Use the tools to read the attached file or search the web and open pages when the "
    "question needs them. Finish your reply with: FINAL ANSWER: <the answer alone>."
)
MCP_PROTOCOL_VERSION = "2025-06-18"


def required(name):
    value = os.environ.get(name)
    if not value:
        sys.stderr.write(
            f"{NAME}: the environment variable {name} is not set. skillrl sets it when it runs this program as "
            "the agent (agent: { program: ... } in run.yaml); see README.md.\n"
        )
        sys.exit(2)
    return value


class McpError(Exception):
    pass


class McpClient:
    """A minimal MCP client over streamable HTTP (one POST per JSON-RPC message)."""

    def __init__(self, url):
        self.url = url
        self.session_id = None
        self.protocol_version = None
        self.next_id = 1

    def _headers(self):
        headers = {
            "Content-Type": "application/json",
            # The server may answer a request with one JSON body or with a stream of server-sent events.
            "Accept": "application/json, text/event-stream",
        }
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        if self.protocol_version:
            headers["MCP-Protocol-Version"] = self.protocol_version
        return headers

    def _post(self, message):
        data = json.dumps(message).encode("utf-8")
        request = urllib.request.Request(self.url, data=data, headers=self._headers(), method="POST")
        try:
            response = urllib.request.urlopen(request, timeout=120)
        except urllib.error.HTTPError as e:
            raise McpError(f"{message.get('method')}: HTTP {e.code}: {e.read().decode('utf-8', 'replace')[:500]}")
        with response:
            session = response.headers.get("Mcp-Session-Id")
            if session:
                self.session_id = session
            if "id" not in message:
                response.read()  # a notification: 202 Accepted, no body
                return None
            content_type = response.headers.get("Content-Type", "")
            if "text/event-stream" in content_type:
                return self._read_event_stream(response, message["id"])
            body = response.read().decode("utf-8")
            reply = json.loads(body)
            if isinstance(reply, list):  # a JSON-RPC batch: ours is the one with our id
                reply = next((r for r in reply if r.get("id") == message["id"]), None)
            return reply

    @staticmethod
    def _read_event_stream(response, request_id):
        """The JSON-RPC response with `request_id` from a server-sent event stream (other events are skipped)."""
        data_lines = []
        for raw in response:
            line = raw.decode("utf-8").rstrip("\r\n")
            if line.startswith("data:"):
                data_lines.append(line[5:].lstrip(" ") if line[5:6] == " " else line[5:])
            elif line == "" and data_lines:
                event = json.loads("\n".join(data_lines))
                data_lines = []
                if isinstance(event, dict) and event.get("id") == request_id and ("result" in event or "error" in event):
                    return event
        if data_lines:
            event = json.loads("\n".join(data_lines))
            if isinstance(event, dict) and event.get("id") == request_id:
                return event
        raise McpError(f"the event stream ended without a response to request {request_id}")

    def request(self, method, params=None):
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}}
        self.next_id += 1
        reply = self._post(message)
        if reply is None:
            raise McpError(f"{method}: no response")
        if "error" in reply:
            raise McpError(f"{method}: {reply['error'].get('message', reply['error'])}")
        return reply["result"]

    def notify(self, method, params=None):
        self._post({"jsonrpc": "2.0", "method": method, "params": params or {}})

    def initialize(self):
        result = self.request(
            "initialize",
            {
                "protocolVersion": MCP_PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": NAME, "version": "0.0.0"},
            },
        )
        self.protocol_version = result.get("protocolVersion", MCP_PROTOCOL_VERSION)
        self.notify("notifications/initialized")
        return result

    def list_tools(self):
        tools, cursor = [], None
        while True:
            result = self.request("tools/list", {"cursor": cursor} if cursor else {})
            tools.extend(result.get("tools", []))
            cursor = result.get("nextCursor")
            if not cursor:
                return tools

    def call_tool(self, name, arguments):
        result = self.request("tools/call", {"name": name, "arguments": arguments})
        text = "\n".join(p.get("text", "") for p in result.get("content", []) if p.get("type") == "text")
        return f"Error: {text}" if result.get("isError") else text

    def close(self):
        if not self.session_id:
            return
        request = urllib.request.Request(self.url, headers=self._headers(), method="DELETE")
        try:
            urllib.request.urlopen(request, timeout=10).close()
        except (urllib.error.URLError, OSError):
            pass  # the server may not support explicit session ends (405)


def chat(base_url, api_key, body):
    """One chat completion; retries rate limits and server errors a few times."""
    data = json.dumps(body).encode("utf-8")
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"}
    for attempt in range(4):
        request = urllib.request.Request(f"{base_url.rstrip('/')}/chat/completions", data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", "replace")[:500]
            if (e.code == 429 or e.code >= 500) and attempt < 3:
                time.sleep(min(2**attempt, 8))
                continue
            raise RuntimeError(f"chat completion failed: HTTP {e.code}: {detail}")
        except urllib.error.URLError as e:
            if attempt < 3:
                time.sleep(min(2**attempt, 8))
                continue
            raise RuntimeError(f"chat completion failed: {e.reason}")
    raise RuntimeError("chat completion failed")


def main():
    task_file = required("SKILLRL_TASK_FILE")
    base_url = required("OPENAI_BASE_URL")
    api_key = required("OPENAI_API_KEY")
    mcp_url = required("SKILLRL_MCP_URL")
    # The proxy answers with the model run.yaml names upstream; this name is only what the request carries.
    model = os.environ.get("OPENAI_MODEL") or "gpt-4o-mini"

    with open(task_file, encoding="utf-8") as f:
        episode = json.load(f)
    question = episode.get("observation") or episode["task"]["prompt"]
    task_tools = {t["name"] for t in episode.get("tools", [])}

    mcp = McpClient(mcp_url)
    mcp.initialize()
    try:
        # Only the task's own tools: this program answers on stdout rather than through act or submit.
        tools = [
            {
                "type": "function",
                "function": {
                    "name": t["name"],
                    "description": t.get("description", ""),
                    "parameters": t.get("inputSchema") or {"type": "object", "properties": {}},
                },
            }
            for t in mcp.list_tools()
            if t["name"] in task_tools
        ]
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]
        answer = ""
        for _ in range(MAX_TURNS):
            body = {"model": model, "messages": messages, "temperature": 0}
            if tools:
                body["tools"] = tools
            completion = chat(base_url, api_key, body)
            choices = completion.get("choices") or []
            if not choices:
                raise RuntimeError("the model returned no choices")
            message = choices[0]["message"]
            calls = message.get("tool_calls") or []
            assistant = {"role": "assistant", "content": message.get("content")}
            if calls:
                assistant["tool_calls"] = calls
            messages.append(assistant)
            if not calls:
                answer = message.get("content") or ""
                break
            for call in calls:
                function = call.get("function", {})
                try:
                    arguments = json.loads(function.get("arguments") or "{}")
                    result = mcp.call_tool(function["name"], arguments)
                except (ValueError, McpError) as e:
                    # A bad call is the model's mistake: tell it, and let it try again.
                    result = f"Error: {e}"
                messages.append({"role": "tool", "tool_call_id": call.get("id"), "content": result})
    finally:
        mcp.close()
    # The answer skillrl reads: the last line of stdout.
    print(json.dumps({"answer": answer}))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # noqa: BLE001 - one clear line for the run's log, then a failing exit
        sys.stderr.write(f"{NAME}: {type(e).__name__}: {e}\n")
        sys.exit(1)
