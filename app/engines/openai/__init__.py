"""OpenAI through the openai SDK (Responses API): requests, replay, web search."""
