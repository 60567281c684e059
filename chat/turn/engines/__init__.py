"""The engines a turn can run on: the agent loop, intent-JSON mode, and the offline parser."""
