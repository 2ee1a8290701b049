"""The engine port every engine implements, the conversation types and the retry layer."""
