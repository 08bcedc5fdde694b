"""faithqa-spark: the Faithfulness-QA counterfactual entity substitution pipeline on Spark."""

from __future__ import annotations

__version__ = "0.1.0"
PIPELINE_VERSION = f"faithqa-spark/{__version__}"
