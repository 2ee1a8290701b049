"""Claude through the anthropic SDK: requests, streams, replay, web tools."""
