"""spark-submit entry point of the evaluator (the same flags as python -m faithqa_spark.evaluate):

    spark-submit jobs/evaluate.py --dataset DIR --predictions FILE [--output EVAL_DIR]
"""

import sys

from faithqa_spark.eval_spark import main

if __name__ == "__main__":
    sys.exit(main())
