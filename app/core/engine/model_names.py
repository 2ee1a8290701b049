"""How a model is named to a person (light: the engines' readiness checks use it)."""


def model_shown(model: str) -> str:
    """A model as a person knows it: llama.cpp's llama-server names it by the path given to
    -m, so a .gguf path is shown by its file name."""
    if model.lower().endswith(".gguf") and ("/" in model or "\\" in model):
        return model.replace("\\", "/").rsplit("/", 1)[-1]
    return model
