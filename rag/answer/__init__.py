"""Stage 5, answer: retrieve passages, gate them on the threshold, build the prompt within budget,
ask the chat model, cite the sources (pipeline.py ties it together)."""
