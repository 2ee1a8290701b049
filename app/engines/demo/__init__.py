"""The offline Demo engine: a scripted run in English and Chinese."""
