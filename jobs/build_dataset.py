"""spark-submit entry point:

    spark-submit jobs/build_dataset.py --squad FILE --output DIR [--config conf/local.toml]
"""

import sys

from faithqa_spark.spark.main import main

if __name__ == "__main__":
    sys.exit(main())
