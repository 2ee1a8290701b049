"""Local servers (Ollama, LM Studio, llama.cpp) through Chat Completions."""
