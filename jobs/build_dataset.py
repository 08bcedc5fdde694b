"""spark-submit entry point:

    spark-submit jobs/build_dataset.py --config conf/default.toml --squad FILE --output DIR
"""

import sys

from faithqa_spark.job import main

if __name__ == "__main__":
    sys.exit(main())
