"""Stage 6, evaluate: question sets, the runner, metrics, calibration, saved runs and reports."""
